# syntax=docker/dockerfile:1
# The production image: `docker build -t healthbook . && docker run -p 3000:3000 -v healthbook:/data \
#   -e SESSION_SECRET=... [-e SMTP_URL=... -e DATABASE_URL=...] healthbook`
# Node 24 runs server.ts and the API (TypeScript) directly by type stripping: no compile step for
# them; only the React Router app is built.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# All dependencies, for the build.
FROM base AS deps
COPY package.json package-lock.json ./
# npm ci's postinstall (tools/link-node.js) runs from here.
COPY tools ./tools
RUN npm ci

FROM deps AS build
COPY . .
RUN npm run build

# Production dependencies only, for the runtime.
FROM base AS prod-deps
COPY package.json package-lock.json ./
COPY tools ./tools
# Then out go Node itself (node-linux-*, optional dependencies for machines with an older Node: the
# base image brings Node) and TypeScript with the @types (optional peers of react-router and
# i18next, for type checking only): about 220 MB the server never loads.
RUN npm ci --omit=dev \
 && rm -rf node_modules/node-linux-* node_modules/.bin/node \
      node_modules/typescript node_modules/@typescript node_modules/.bin/tsc node_modules/.bin/tsserver \
      node_modules/@types \
 && npm cache clean --force

FROM base AS runtime
# Mail waits in the database until SMTP_URL is given (then it is sent): the image starts without it.
ENV NODE_ENV=production \
    MAIL_TRANSPORT=outbox \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0
COPY --from=prod-deps /app/node_modules ./node_modules
# package.json ("type": "module") makes Node load the .ts files as ES modules.
COPY package.json server.ts server-cluster.ts config.ts ./
# The embedded upstream API and its committed migrations (resolved from the working directory).
COPY api ./api
# app/ is small and keeps later imports working.
COPY app ./app
# The wire contract the API checks its requests with (and the web app takes its types from).
COPY contract ./contract
# What both HTTP edges share (the lingering close of a refused upload).
COPY http ./http
COPY locales ./locales
COPY public ./public
COPY --from=build /app/build ./build
# The npm scripts' Node check, so that `npm run admin -- …` works in the container too.
COPY tools ./tools
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.ts"]
