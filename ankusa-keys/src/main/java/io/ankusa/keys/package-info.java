/**
 * The byte layout of store format 3: column families, key families with their sentinels, one
 * class per key family (key and value layout in its Javadoc, encoders and decoders), tenant
 * ranges and big-endian helpers. Integers in keys are unsigned big-endian, so unsigned byte order
 * is numeric order. Exported only to {@code io.ankusa.queue}.
 */
package io.ankusa.keys;
