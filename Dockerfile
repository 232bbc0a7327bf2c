# syntax=docker/dockerfile:1
# Hearth's server as an image: `docker build -t hearth .`, then
#   docker run -d -p 8420:8420 -v hearth-data:/var/lib/hearth -e HEARTH_ADMIN_TOKEN=... hearth
# (README.md, "Run it as a service"). `npm run check:docker` checks this file against the build
# context (every COPY source exists and is not left out by .dockerignore) where Docker cannot run.

# One Node for every stage: the build records V8's compiled code for the CLI bundle
# (scripts/bundle.mjs), and only the Node that wrote that cache can use it.
ARG NODE_IMAGE=node:24-bookworm-slim

# Production dependencies only, installed from the lockfile. No package has install scripts, and
# Hearth's own `prepare` (the build) has nothing to build here.
FROM ${NODE_IMAGE} AS deps
WORKDIR /opt/hearth
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# The build: TypeScript to dist/, the web UI to web/dist/, the CLI bundle and its code cache.
FROM ${NODE_IMAGE} AS build
WORKDIR /opt/hearth
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY scripts ./scripts
COPY schemas ./schemas
COPY release ./release
COPY src ./src
COPY web ./web
RUN npm run build

# What runs: Node, OpenSSH's client and rsync (real deployments reach nodes through them, and
# ssh-keygen makes Hearth's key), tini as PID 1 (ssh's shared connections outlive the ssh that
# started them, and someone must reap them), the production dependencies and the built files.
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends openssh-client rsync tini ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && groupadd --system hearth \
  && useradd --system --gid hearth --home-dir /var/lib/hearth --shell /usr/sbin/nologin hearth \
  && install -d -o hearth -g hearth -m 0750 /var/lib/hearth
WORKDIR /opt/hearth
ENV NODE_ENV=production \
  PATH=/opt/hearth/bin:$PATH
COPY package.json ./
COPY --from=deps /opt/hearth/node_modules ./node_modules
COPY --from=build /opt/hearth/bin ./bin
COPY --from=build /opt/hearth/dist ./dist
COPY --from=build /opt/hearth/web/dist ./web/dist
COPY schemas ./schemas
COPY release ./release
# The embedded database, Hearth's SSH key and ssh's control sockets. With DATABASE_URL set
# (PostgreSQL), only the key and the sockets are kept here.
VOLUME ["/var/lib/hearth"]
USER hearth
EXPOSE 8420
# /healthz answers while the process serves; /readyz also needs the database (docs/api.md).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8420/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "hearth"]
# Inside a container the server listens on every address; publish the port to choose who reaches it.
CMD ["serve", "--host", "0.0.0.0", "--port", "8420", "--data-dir", "/var/lib/hearth"]
