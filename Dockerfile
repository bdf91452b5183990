# One image for the API (which serves the built web app), the worker and the one-shot set-up; the
# command picks which. The build stage installs every dependency and compiles (`pnpm build`); the
# deps stage installs only the production dependencies of the server packages; the runtime stage
# holds those and the compiled output, and runs them with plain node as an unprivileged user.

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm i -g pnpm@10
COPY . .
RUN pnpm install --frozen-lockfile && pnpm build

FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN npm i -g pnpm@10
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/domain/package.json packages/domain/
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
# Copied, not linked to pnpm's store, which stays behind in this stage.
RUN pnpm install --prod --frozen-lockfile --config.package-import-method=copy \
      --filter @northstar/api --filter @northstar/worker --filter @northstar/domain --filter @northstar/shared

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# The workspace packages' exports name their compiled files under this condition (scripts/compiled.mjs).
ENV NODE_OPTIONS="--enable-source-maps --conditions=northstar-compiled"
COPY --from=deps /app ./
COPY --from=build /app/packages/shared/dist packages/shared/dist
COPY --from=build /app/packages/domain/dist packages/domain/dist
COPY --from=build /app/packages/domain/migrations packages/domain/migrations
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/worker/dist apps/worker/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# Writable by the unprivileged user: DATA_DIR and UPLOAD_DIR by default (var/), and the mount points of
# docker-compose's volumes (a new named volume takes the owner of its mount point in the image).
RUN mkdir -p var/uploads /data/uploads /data/state && chown -R node:node var /data
USER node
EXPOSE 3000
# The API's readiness (PostgreSQL and Redis answer); docker-compose sets the worker's own.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=6 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT ?? 3000}/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The servers' own option: SERVER_NODE_OPTIONS in scripts/compiled.mjs.
CMD ["sh", "-c", "node apps/api/dist/cli/setup.js && exec node --max-semi-space-size=32 apps/api/dist/server.js"]
