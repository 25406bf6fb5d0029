# facteur's image: the HTTPS API and the workers in one process (`facteur serve`).
# Build: docker build -t facteur .   Run with PostgreSQL: docker compose up (compose.yaml).
FROM node:20-slim

WORKDIR /app
ENV NODE_ENV=production

# `npm ci` runs `prepare`: the build (bin/build.js) and the official validators compiled into
# build/validators, so the first Factur-X of a container is ready in seconds. It needs the
# sources, hence the whole context (.dockerignore keeps out the rest).
COPY . .
RUN npm ci --omit=dev && npm cache clean --force

# A user of its own (the embedded PostgreSQL refuses root too); the data directory (certificate,
# encryption key, files, the embedded database without DATABASE_URL) is its one writable place.
RUN groupadd --system facteur \
  && useradd --system --gid facteur --home-dir /app --shell /usr/sbin/nologin facteur \
  && mkdir -p /data \
  && chown facteur:facteur /data
ENV FACTEUR_DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8443 \
    HTTP_PORT=8080
VOLUME ["/data"]
EXPOSE 8443 8080
USER facteur

# /healthz answers 200 when the API reaches its database. The certificate may be the
# self-signed one of a first start: the check is local, it does not verify it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "require('node:https').get({host:'127.0.0.1',port:process.env.PORT,path:'/healthz',headers:{host:'localhost'},rejectUnauthorized:false},(r)=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"]

CMD ["node", "bin/facteur.js", "serve"]
