/**
 * The Deliveries op builders and the transitions built on them. The only package that constructs
 * {@code ?D ?F ?X ?A} keys (an architecture rule checks), and the only way to write a
 * {@code ?D ?F ?x ?X ?a} key: every builder adds its counter deltas to the same batch.
 */
package io.ankusa.queue.deliveries;
