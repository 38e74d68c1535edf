package io.ankusa.kafka;

/**
 * Kafka's acknowledgement of a published hook: the record is in the intake topic, replicated as
 * {@code acks=all} requires. The hook is not in a store yet; a node ingests it from there.
 *
 * @param hookId    the hook's id
 * @param tenant    its tenant, the record's key
 * @param partition the intake partition the tenant maps to
 * @param offset    the record's offset in that partition
 */
public record IntakeAck(String hookId, String tenant, int partition, long offset) {
}
