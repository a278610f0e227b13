# Generic Extractor (TypeScript) as a Keboola platform component.
# One extraction on /data (config.json, in/state.json → out/tables, out/state.json); the container
# exits with the component's exit code (0 success, 1 user error, 2 application error).
#
# CI has no Docker engine: scripts/image-steps.sh runs the runtime stage's install, cache warm-up
# and entrypoint outside Docker on every CI run. Keep the `npm ci` line, the warm-up RUN and
# ENTRYPOINT identical to its INSTALL, WARM_CACHE and ENTRYPOINT (tests/platform/image.test.ts checks).

# --- build: compile TypeScript to dist/, bundle the extractor (scripts/bundle.ts) ---
FROM node:24-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Node comes from the base image, so the `node` devDependency's download script is not needed.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle.ts ./scripts/
COPY src ./src
RUN npx tsc -p tsconfig.build.json && node scripts/bundle.ts

# --- runtime: production dependencies only, non-root ---
FROM node:24-slim
ENV NODE_ENV=production \
    KBC_DATADIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
    && npm cache clean --force
COPY --from=build /src/dist ./dist
# The base image's unprivileged user (uid 1000); the mounted /data must be writable by it.
USER node
# V8's compile cache lives under /tmp, per user: fill it for `node` so that each job's fresh
# container starts with the extractor already compiled (src/cli.ts).
RUN node /app/dist/cli.js --fill-compile-cache
ENTRYPOINT ["node", "/app/dist/cli.js"]
