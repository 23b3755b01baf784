# syntax=docker/dockerfile:1
# The application image: built with the dev dependencies, run with the production ones only.
#   docker build -t hexa-services .
#   docker run -e AUTH_SECRET=... -e MONGODB_URL=mongodb://... -p 3030:3030 hexa-services
# docs/deploying.md has the variables and the compose.yaml that runs two instances.

# Any line of package.json's engines range; 24 is the active LTS line (Node 20 is past its end of life).
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json .swcrc ./
COPY scripts ./scripts
COPY src ./src
# dist/, with the chat page's browser script bundled in it (no bundler needed at run time).
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3030 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# DATA_DIR holds the embedded database (DATABASE=embedded) and the revoked service credentials;
# mount a volume there to keep them. The image's own files stay read-only to the process.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3030
# /health answers while the process serves; the load balancer asks /ready (database and remotes).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3030) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm: SIGTERM from `docker stop` reaches the server, which then shuts down gracefully.
CMD ["node", "dist/main.js"]
