"""PNG charts for docs/benchmarks.md, drawn with matplotlib (no display needed).

Each benchmark draws its own figures into docs/benchmarks/ and prints a Markdown
image link to them, so `make bench` rewrites the pictures with the tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after the backend is chosen
from matplotlib.figure import Figure

FOLDER = Path(__file__).parents[1] / "docs" / "benchmarks"


def _saved(figure: Figure, name: str, alt: str) -> str:
    """Save `figure` as docs/benchmarks/NAME.png; its Markdown image link (from docs/)."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    figure.tight_layout()
    figure.savefig(FOLDER / f"{name}.png", dpi=100)
    plt.close(figure)
    return f"![{alt}](benchmarks/{name}.png)"


def bars(
    name: str,
    title: str,
    labels: Sequence[str],
    series: Mapping[str, Sequence[float]],
    ylabel: str,
    log: bool = False,
) -> str:
    """Grouped bars: one group per label, one bar per series; the image link."""
    figure, axes = plt.subplots(figsize=(9, 4.2))
    width = 0.8 / max(1, len(series))
    for index, (series_name, values) in enumerate(series.items()):
        positions = [x + (index - (len(series) - 1) / 2) * width for x in range(len(labels))]
        axes.bar(positions, values, width, label=series_name)
    axes.set_xticks(range(len(labels)), labels, rotation=20, ha="right")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    if log:
        axes.set_yscale("log")
    if len(series) > 1:
        axes.legend()
    axes.grid(axis="y", alpha=0.3)
    return _saved(figure, name, title)


def lines(
    name: str,
    title: str,
    xs: Sequence[float],
    series: Mapping[str, Sequence[float]],
    xlabel: str,
    ylabel: str,
    log_x: bool = False,
) -> str:
    """One line per series over `xs`; the image link."""
    figure, axes = plt.subplots(figsize=(7, 4))
    for series_name, values in series.items():
        axes.plot(xs, values, marker="o", label=series_name)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.set_ylim(bottom=0)
    if log_x:
        axes.set_xscale("log")
        axes.minorticks_off()
    axes.set_xticks(list(xs), [f"{x:,g}" for x in xs])
    if len(series) > 1:
        axes.legend()
    axes.grid(alpha=0.3)
    return _saved(figure, name, title)
