-- The Ankusa outbox on MySQL 8 / MariaDB 10.6 (InnoDB). ${table} is the outbox table's name.
-- Rows are written by AnkusaOutbox.add in the application's transaction and deleted by the relay
-- once the queue holds them; the auto-increment id gives the order the relay reads them in.
CREATE TABLE IF NOT EXISTS ${table} (
    id              BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id       VARCHAR(255),
    hook_id         VARCHAR(255) NOT NULL,
    source_id       VARCHAR(255) NOT NULL,
    event_type      VARCHAR(255),
    idempotency_key VARCHAR(255),
    sinks           MEDIUMTEXT   NOT NULL,
    headers         MEDIUMTEXT   NOT NULL,
    payload         LONGBLOB     NOT NULL,
    created_at      TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Rows the queue refused (or that committed after the relay had passed their id), with the error.
CREATE TABLE IF NOT EXISTS ${table}_refused (
    id              BIGINT       NOT NULL PRIMARY KEY,
    tenant_id       VARCHAR(255),
    hook_id         VARCHAR(255) NOT NULL,
    source_id       VARCHAR(255) NOT NULL,
    event_type      VARCHAR(255),
    idempotency_key VARCHAR(255),
    sinks           MEDIUMTEXT   NOT NULL,
    headers         MEDIUMTEXT   NOT NULL,
    payload         LONGBLOB     NOT NULL,
    created_at      TIMESTAMP(6) NOT NULL,
    error           VARCHAR(64)  NOT NULL,
    reason          TEXT         NOT NULL,
    refused_at      TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Id ranges the relay passed without a row (rolled back, or not committed within the gap wait).
CREATE TABLE IF NOT EXISTS ${table}_gaps (
    from_id   BIGINT       NOT NULL PRIMARY KEY,
    to_id     BIGINT       NOT NULL,
    passed_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB;
