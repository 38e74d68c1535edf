package io.ankusa.dispatch.http;

import java.util.Optional;

/**
 * What an outcome depends on: the response's status and the two headers read.
 *
 * @param status     the status code
 * @param retryAfter the {@code Retry-After} header, if any
 * @param location   the {@code Location} header, if any
 */
record ResponseHead(int status, Optional<String> retryAfter, Optional<String> location) {
}
