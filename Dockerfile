# Rootline: one static binary on a distroless image, running as a non-root user.
# Build: docker build -t rootline .   Run: see docker-compose.yml and the README.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
# go.mod replaces go-graphviz with the patched copy in third_party (docs/architecture.md).
COPY third_party third_party
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -tags nomsgpack -o /out/rootline ./cmd/rootline \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/rootline /rootline
# The default SQLite file (rootline.db) is created here when no --database is given, so the
# folder belongs to the nonroot user (65532) the image runs as.
COPY --from=build --chown=65532:65532 /out/data /data
WORKDIR /data
EXPOSE 8080
ENTRYPOINT ["/rootline"]
# Beyond loopback, authentication is on: set ROOTLINE_API_TOKEN (16+ characters).
CMD ["serve", "--addr", "0.0.0.0:8080", "--auth", "on"]
