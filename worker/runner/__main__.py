"""`python -m worker.runner --pipeline-id N`: the Spark driver of one pipeline."""

import argparse
import logging
import os

import django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pipeline-id", type=int, required=True)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.config.settings.dev")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    django.setup()
    from worker.runner.driver import run_pipeline

    run_pipeline(args.pipeline_id)


if __name__ == "__main__":
    main()
