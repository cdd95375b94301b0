/** configFromEnv: unset variables fall to defaults; malformed values stop the start naming the variable. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configFromEnv } from "../adapters/runtime/config.ts";

test("numbers, booleans and levels are read in their usual spellings", () => {
  const config = configFromEnv({
    DATABASE_POOL_SIZE: " 4 ",
    TRUST_PROXY: "yes",
    METRICS_ENABLED: "TRUE",
    S3_FORCE_PATH_STYLE: "0",
    LOG_LEVEL: "warn",
    SHUTDOWN_TIMEOUT_MS: "1500",
  });
  assert.equal(config.poolSize, 4);
  assert.equal(config.trustProxy, true);
  assert.equal(config.metricsEnabled, true);
  assert.equal(config.s3PathStyle, false);
  assert.equal(config.logLevel, "warn");
  assert.equal(config.shutdownTimeoutMs, 1500);
});

test("unset and empty variables leave the defaults", () => {
  const config = configFromEnv({ DATABASE_POOL_SIZE: "", METRICS_ENABLED: "" });
  assert.equal(config.poolSize, undefined);
  assert.equal(config.metricsEnabled, undefined);
  assert.equal(config.trustProxy, false);
});

test("a malformed value throws an error naming the variable", () => {
  assert.throws(() => configFromEnv({ SHUTDOWN_TIMEOUT_MS: "soon" }), /SHUTDOWN_TIMEOUT_MS must be a number >= 0, got "soon"/);
  assert.throws(() => configFromEnv({ DATABASE_POOL_SIZE: "-1" }), /DATABASE_POOL_SIZE must be a number/);
  assert.throws(() => configFromEnv({ AI_TIMEOUT_MS: "Infinity" }), /AI_TIMEOUT_MS/);
  assert.throws(() => configFromEnv({ METRICS_ENABLED: "maybe" }), /METRICS_ENABLED must be true or false/);
  assert.throws(() => configFromEnv({ LOG_LEVEL: "verbose" }), /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
  assert.throws(() => configFromEnv({ OUTBOUND_CA_FILE: "/no/such/ca.pem" }), /OUTBOUND_CA_FILE names a file that cannot be read .*ENOENT/);
  assert.throws(() => configFromEnv({ ENCRYPTION_KEY: "secret" }), /ENCRYPTION_KEY must be 32 random bytes/);
  assert.throws(() => configFromEnv({ ENCRYPTION_KEY_PREVIOUS: "ab".repeat(16) }), /ENCRYPTION_KEY_PREVIOUS must be 32 random bytes/);
  assert.throws(() => configFromEnv({ EVENT_STREAMS_PER_KEY: "many" }), /EVENT_STREAMS_PER_KEY must be a number/);
});

test("the encryption keys and the event stream limits", () => {
  const hex = "0123456789abcdef".repeat(4);
  const config = configFromEnv({
    ENCRYPTION_KEY: ` ${hex} `,
    ENCRYPTION_KEY_PREVIOUS: Buffer.alloc(32, 7).toString("base64"),
    EVENT_STREAMS_PER_KEY: "3",
    EVENT_STREAMS_PER_USER: "",
  });
  assert.equal(config.encryptionKey, hex);
  assert.equal(config.encryptionKeyPrevious, Buffer.alloc(32, 7).toString("base64"));
  assert.deepEqual(config.eventStreamLimits, { perKey: 3, perUser: undefined });
});

test("outbound fetch settings: allowed hosts, a CA file's PEM text, the time bound", async () => {
  const scratch = await mkdtemp(join(tmpdir(), "tl-config-"));
  try {
    const caFile = join(scratch, "ca.pem");
    await writeFile(caFile, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    const config = configFromEnv({ OUTBOUND_ALLOW_HOSTS: "images.internal, 10.0.0.5:8443", OUTBOUND_CA_FILE: caFile, OUTBOUND_TIMEOUT_MS: "2500" });
    assert.equal(config.outboundAllowHosts, "images.internal, 10.0.0.5:8443");
    assert.match(config.outboundCa ?? "", /BEGIN CERTIFICATE/);
    assert.equal(config.outboundTimeoutMs, 2500);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});
