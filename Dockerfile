# Generic Extractor (TypeScript) as a Keboola platform component.
# One extraction on /data (config.json, in/state.json → out/tables, out/state.json); the container
# exits with the component's exit code (0 success, 1 user error, 2 application error).
# It runs as the platform runs it (docs/deployment.md): under the runner's uid:gid, with a fresh
# /tmp mounted over the image's, a /data the runner made, a memory limit; it writes only there.
#
# The base image: Node 24 slim, the Node version of the project's `node` devDependency. Pin it by
# digest when a registry is at hand (docs/deployment.md, "Updating the base image");
# `npm run image-test` builds on a local stand-in with --build-arg NODE_IMAGE=….
ARG NODE_IMAGE=docker.io/library/node:24.21.0-bookworm-slim
#
# CI without a container engine: scripts/image-steps.sh runs the runtime stage's install, cache
# warm-up and entrypoint outside a container. Keep the `npm ci` line, the warm-up RUN and
# ENTRYPOINT identical to its INSTALL, WARM_CACHE and ENTRYPOINT (tests/platform/image.test.ts checks).

# --- build: compile TypeScript to dist/, bundle the extractor (scripts/bundle.ts) ---
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Node comes from the base image, so the `node` devDependency's download script is not needed.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle.ts ./scripts/
COPY src ./src
RUN npx tsc -p tsconfig.build.json && node scripts/bundle.ts

# --- runtime: production dependencies only; root owns /app, every uid can read it ---
FROM ${NODE_IMAGE}
# EX_GENERIC_COMPILE_CACHE: V8's compile cache, filled below, read by every job under any uid
# (src/runtime/compileCache.ts). Not under /tmp: the platform mounts a fresh folder there.
# MALLOC_ARENA_MAX=2: glibc's per-thread arenas (main, output worker, V8's helpers) held 4–10 MB of
# peak RSS at P1 for no speed (docs/performance.md, issue 28); glibc reads it only at process start.
ENV NODE_ENV=production \
    KBC_DATADIR=/data \
    EX_GENERIC_COMPILE_CACHE=/app/compile-cache \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY package.json package-lock.json ./
# npm keeps its own compile cache in /tmp: the platform mounts a fresh /tmp, so it is only weight.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
    && npm cache clean --force && rm -rf /tmp/node-compile-cache
COPY --from=build /src/dist ./dist
RUN node /app/dist/cli.js --fill-compile-cache && chmod -R a+rX /app/compile-cache
# The base image's unprivileged user (uid 1000) when run by hand; the platform's runner replaces
# it with its own uid:gid, which owns /data.
USER node
ENTRYPOINT ["node", "/app/dist/cli.js"]
