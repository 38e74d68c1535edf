package io.ankusa.queue.ledger;

/**
 * An active-index marker as the dispatcher sees it: tenant {@code ord} has (or very recently had)
 * a due row in second {@code bucket}.
 *
 * @param ord    tenant ordinal
 * @param bucket the second ({@code at / 1000})
 */
public record ActiveTenant(long ord, long bucket) {
}
