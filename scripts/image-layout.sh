#!/usr/bin/env bash
# Lays out on disk what the image's /app holds, without a docker daemon, and prints its size:
#   old  the former one-stage image: the whole workspace with every dependency and the web build
#   new  the runtime stage of the Dockerfile: production dependencies of the server packages and the
#        compiled output (the same commands as the Dockerfile's build and deps stages)
# Usage: scripts/image-layout.sh old|new <empty directory>. Files are copied from pnpm's store, as in
# an image layer. The base image (node:20-bookworm-slim) is the same in both and not counted.
set -euo pipefail
mode="$1"
out="$2"
repo="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
build="$out/build"
app="$out/app"
rm -rf "$build" "$app"
mkdir -p "$build" "$app"

# COPY . . (the tracked files, less .dockerignore's entries: none of them are tracked).
git -C "$repo" ls-files -z | (cd "$repo" && xargs -0 cp --parents -t "$build")
cd "$build"
pnpm install --frozen-lockfile --config.package-import-method=copy >/dev/null

if [ "$mode" = old ]; then
  pnpm --filter @northstar/web build >/dev/null
  rm -rf "$app"
  mv "$build" "$app"
else
  pnpm build >/dev/null
  cp --parents -t "$app" pnpm-lock.yaml pnpm-workspace.yaml package.json \
    packages/shared/package.json packages/domain/package.json apps/api/package.json apps/worker/package.json
  (cd "$app" && pnpm install --prod --frozen-lockfile --config.package-import-method=copy \
    --filter @northstar/api --filter @northstar/worker --filter @northstar/domain --filter @northstar/shared >/dev/null)
  cp -r --parents -t "$app" packages/shared/dist packages/domain/dist packages/domain/migrations \
    apps/api/dist apps/worker/dist apps/web/dist
fi
echo "$mode: $(du -sb "$app" | cut -f1) bytes in $app"
echo "  node_modules: $(find "$app" -name node_modules -prune -print0 | du -scb --files0-from=- | tail -1 | cut -f1) bytes"
