# syntax=docker/dockerfile:1
# Build: compile TypeScript (decorator metadata needs tsc), then keep only production dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY src ./src
COPY test ./test
# The test of examples/webhook-receiver type-checks against its server.d.ts.
COPY examples ./examples
COPY dashboard ./dashboard
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/app/.data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/dashboard ./dist/dashboard
# The CLIs' build step, which uses this image's prebuilt dist/ (docker compose exec app npm run merchant:create -- --name X).
COPY scripts ./scripts
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/health/ready').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
