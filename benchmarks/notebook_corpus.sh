#!/usr/bin/env bash
# Gathers a corpus of real notebooks nobody here wrote: the .ipynb files that Debian's Python
# documentation packages ship (downloaded with `apt-get download`, not installed) and those
# installed packages ship under a site-packages directory. Prints the corpus directory.
#
#   benchmarks/notebook_corpus.sh [CORPUS_DIR] [SITE_PACKAGES...]
set -euo pipefail
corpus=${1:-/tmp/cellguard-notebook-corpus}
shift || true
packages=(
  python-dask-doc python-ipywidgets-doc python-jupyter-client-doc python-lmfit-doc
  python-nbconvert-doc python-nbsphinx-doc python-notebook-doc python-pint-doc
  python-ipython-doc python-nbformat-doc python-nbclient-doc python-xarray-doc
  python-statsmodels-doc python-uncertainties-doc python-pandas-doc
)
mkdir -p "$corpus/debs"
cd "$corpus/debs"
for package in "${packages[@]}"; do
  ls "${package}"_*.deb >/dev/null 2>&1 || apt-get download -q "$package" >/dev/null
done
for deb in *.deb; do
  dir="$corpus/extracted/${deb%%_*}"
  [ -d "$dir" ] || { mkdir -p "$dir" && dpkg-deb -x "$deb" "$dir"; }
done
# Notebooks zipped inside the documentation (sphinx-gallery downloads).
find "$corpus/extracted" -name '*.zip' -print0 | while IFS= read -r -d '' zip; do
  out="$zip.d"
  [ -d "$out" ] || { mkdir -p "$out" && (cd "$out" && python3 -m zipfile -e "$zip" . 2>/dev/null || true); }
done
for site in "$@"; do
  find "$site" -name '*.ipynb' -print0 | while IFS= read -r -d '' nb; do
    mkdir -p "$corpus/site"; cp -n "$nb" "$corpus/site/$(echo "$nb" | tr '/' '_')"
  done
done
echo "$corpus"
