-- The Ankusa outbox on PostgreSQL. ${table} is the outbox table's name (ankusa_outbox by default).
-- Rows are written by AnkusaOutbox.add in the application's transaction and deleted by the relay
-- once the queue holds them; the identity column gives the order the relay reads them in.
CREATE TABLE IF NOT EXISTS ${table} (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id       TEXT,
    hook_id         TEXT        NOT NULL,
    source_id       TEXT        NOT NULL,
    event_type      TEXT,
    idempotency_key TEXT,
    sinks           TEXT        NOT NULL,
    headers         TEXT        NOT NULL,
    payload         BYTEA       NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Rows the queue refused (or that committed after the relay had passed their id), with the error.
CREATE TABLE IF NOT EXISTS ${table}_refused (
    id              BIGINT      PRIMARY KEY,
    tenant_id       TEXT,
    hook_id         TEXT        NOT NULL,
    source_id       TEXT        NOT NULL,
    event_type      TEXT,
    idempotency_key TEXT,
    sinks           TEXT        NOT NULL,
    headers         TEXT        NOT NULL,
    payload         BYTEA       NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    error           TEXT        NOT NULL,
    reason          TEXT        NOT NULL,
    refused_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Id ranges the relay passed without a row (rolled back, or not committed within the gap wait).
CREATE TABLE IF NOT EXISTS ${table}_gaps (
    from_id   BIGINT      PRIMARY KEY,
    to_id     BIGINT      NOT NULL,
    passed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
