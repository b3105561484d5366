"""MkDocs hooks (mkdocs.yml `hooks:`): files the site shows that live elsewhere in the repository, added at build time.

The judge's guide shows the in-app Help's screenshots (judgeapp/static/help/en/, taken by `make help-shots`) and the
benchmarks page links the latest table (bench/RESULTS.md, written by `make bench`). Both are added to the build as
they are, never copied into docs/, so the site cannot show an older picture or table than the app's.
"""

from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
ADDED = {
    "judges/shots": (ROOT / "judgeapp" / "static" / "help" / "en", "*.png"),
    "contributing": (ROOT / "bench", "RESULTS.md"),
}


def on_files(files: Files, config) -> Files:
    for folder, (source, pattern) in ADDED.items():
        for path in sorted(source.glob(pattern)):
            name = "bench-results.md" if path.name == "RESULTS.md" else path.name
            files.append(File.generated(config, f"{folder}/{name}", abs_src_path=str(path)))
    return files
