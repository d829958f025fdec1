"""`python -m worker.runner --pipeline-id N`: the Spark driver of one pipeline;
`--spare KEY`: a warm driver waiting for a pipeline (worker/spares.py)."""

import argparse
import logging
import os

import django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--pipeline-id", type=int)
    which.add_argument("--spare", metavar="KEY")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.config.settings.dev")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    django.setup()
    if args.spare:
        from worker.spares import serve

        serve(args.spare)
        return
    from worker.runner.driver import run_pipeline
    from worker.spares import serve, spare_key

    spark = run_pipeline(args.pipeline_id)
    if spark is not None:  # the pipeline stopped; its warm driver waits for the next
        serve(spare_key(), spark)


if __name__ == "__main__":
    main()
