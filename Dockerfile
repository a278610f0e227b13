# Generic Extractor (TypeScript) as a Keboola platform component.
# One extraction on /data (config.json, in/state.json → out/tables, out/state.json); the container
# exits with the component's exit code (0 success, 1 user error, 2 application error).
#
# CI has no Docker engine: scripts/image-steps.sh runs the runtime stage's install and entrypoint
# outside Docker on every CI run. Keep the `npm ci` line and ENTRYPOINT identical to its INSTALL and
# ENTRYPOINT (tests/platform/image.test.ts checks).

# --- build: compile TypeScript to dist/ ---
FROM node:24-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Node comes from the base image, so the `node` devDependency's download script is not needed.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json

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
ENTRYPOINT ["node", "/app/dist/cli.js"]
