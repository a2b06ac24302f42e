#!/usr/bin/env bash
# Makes the README's screenshots: the game draws real units into ANSI files
# (docs/shots, also run by `go generate ./docs/shots`), freeze turns them into
# SVG, and rsvg-convert rasterises them with DejaVu Sans Mono, which has the
# card suits.
# Needs: go, rsvg-convert (Debian: librsvg2-bin), fonts-dejavu-core.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./docs/shots docs
tmp=$(mktemp -d)
for shot in yams vegas vegas-scratching yams-jackpot; do
  (cd "$tmp" && go run github.com/charmbracelet/freeze@v0.2.2 "$OLDPWD/docs/$shot.ansi" -o "$tmp/$shot.svg" >/dev/null)
  sed -e 's/font-family="JetBrains Mono"/font-family="DejaVu Sans Mono"/' -e 's/@font-face[^}]*}//' "$tmp/$shot.svg" > "$tmp/$shot-dejavu.svg"
  rsvg-convert -z 1.5 "$tmp/$shot-dejavu.svg" -o "docs/$shot.png"
  rm "docs/$shot.ansi"
done
rm -rf "$tmp"
