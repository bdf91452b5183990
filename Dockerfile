# One image for the API (which serves the built web app) and the worker; the command picks which.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm i -g pnpm@10
COPY . .
RUN pnpm install --frozen-lockfile && pnpm --filter @northstar/web build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
EXPOSE 3000
CMD ["sh", "-c", "node --import tsx apps/api/src/cli/setup.ts && exec node --import tsx apps/api/src/server.ts"]
