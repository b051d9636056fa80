# syntax=docker/dockerfile:1
# fleet-treasury-bot: the image docs/deploy.md describes. Build with `docker build -t fleet-treasury-bot .`
# test/e2e/dockerfile.test.ts runs these stages' commands without a container engine: keep every RUN
# relative to WORKDIR, COPY sources named (no wildcards), and CMD and HEALTHCHECK in exec form.

# Build: every dependency, then the TypeScript compiled into dist/ and the blank PGlite cluster in
# dist/pglite-blank/. The local Slack workspace (packages/local-slack) is dev tooling: not installed.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --workspaces=false --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# Runtime: production dependencies and dist/ only; no compiler, no tests, no sources, no secrets.
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --workspaces=false --ignore-scripts --no-audit --no-fund
COPY --from=build /app/dist ./dist
# The font the runway chart is drawn with (Inter, SIL OFL 1.1): read from dist/runway/chart/ as ../../../assets/fonts.
COPY assets ./assets
# DATA_DIR's default (./data) for the embedded database, writable by the user the app runs as; unused
# with DATABASE_URL. Mount a volume here to keep it.
RUN mkdir data && chown node:node data
# The unprivileged user of the node image (uid 1000): the app's files stay root's, read-only to it.
USER node
ENV PORT=3000
EXPOSE 3000
# Liveness: the process answers on PORT. /readyz (database, Slack token, Fleet API) is for routing and alerts.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
