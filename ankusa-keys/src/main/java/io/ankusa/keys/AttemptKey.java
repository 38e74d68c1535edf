package io.ankusa.keys;

/**
 * The attempt history: one entry per settled delivery attempt, kept under three keys of the
 * {@code 'H'} family, all led by the tenant's ordinal, so that each read is one range scan and
 * erasing a tenant's history is one range delete:
 *
 * <pre>
 * column family  index
 * by tenant      | 'H' | ord u32 | 't' | ~at u64 | seq u64 | sink u16 | attempt u32 |           28 bytes
 * by hook        | 'H' | ord u32 | 'h' | len u8 | hook id | ~at u64 | seq u64 | sink u16 | attempt u32 |
 *                                                                                 29 + len bytes, len 1..255
 * slot           | 'H' | ord u32 | 's' | seq u64 | sink u16 | slot u16 |                          18 bytes
 * sentinels      lo = 'H' + 4 x 0x00, hi = 'H' + 4 x 0xFF
 * </pre>
 *
 * <p>{@code ~at} is {@code 0xFFFFFFFFFFFFFFFF - at} (the attempt's start, epoch milliseconds), so
 * a forward scan reads newest first: a tenant's history is the range {@code 'H' ord 't'}, a hook's
 * (every sink, every seq with that id) the range {@code 'H' ord 'h' len id}. The by-tenant and
 * by-hook keys hold the same entry value (codec in {@code io.ankusa.queue.deliveries}). The slot
 * key bounds the history per delivery: attempt entries of a delivery take slots
 * {@code 0 .. K-1} in turn, and the slot's value {@code <<at u64, attempt u32>>} names the entry
 * that holds it, so the writer that takes a slot deletes that entry's two keys in the same batch.
 *
 * <p>Added to store format 3 without a new format number (as the quarantine's {@code 'Q'}): an
 * older release never reads an {@code 'H'} key, and opening a format-3 store that lacks the
 * family's sentinels writes them. Only {@code io.ankusa.queue.deliveries} constructs these keys.
 *
 * @param ord     tenant ordinal
 * @param at      when the attempt started, epoch milliseconds
 * @param seq     the hook's seq
 * @param sink    sink number
 * @param attempt the attempt number
 */
public record AttemptKey(long ord, long at, long seq, int sink, int attempt) {

    /** Encoded length of a by-tenant key. */
    public static final int TENANT_KEY_LENGTH = 28;
    /** Encoded length of a slot key. */
    public static final int SLOT_KEY_LENGTH = 18;
    /** Encoded length of a slot value. */
    public static final int SLOT_VALUE_LENGTH = 12;
    /** Longest hook id (in bytes) a by-hook key holds. */
    public static final int HOOK_ID_MAX_BYTES = 255;
    /** Sub-family byte of the by-tenant keys. */
    public static final byte BY_TENANT = 't';
    /** Sub-family byte of the by-hook keys. */
    public static final byte BY_HOOK = 'h';
    /** Sub-family byte of the slot keys. */
    public static final byte SLOT = 's';
    /** The family and its sentinels. */
    public static final KeyFamily FAMILY = KeyFamily.fixed("attempts", ColumnFamilies.INDEX,
            new byte[] {Prefixes.ATTEMPTS}, 4);

    /** Checks the ranges. */
    public AttemptKey {
        Ordinals.requireTenant(ord);
        Ordinals.requireNonNegative("at", at);
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireSink(sink);
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be >= 0: " + attempt);
        }
    }

    /** The by-tenant key. */
    public byte[] encodeByTenant() {
        byte[] out = new byte[TENANT_KEY_LENGTH];
        head(out, ord, BY_TENANT);
        tail(out, 6);
        return out;
    }

    /** The by-hook key for a hook id of 1..{@value #HOOK_ID_MAX_BYTES} bytes. */
    public byte[] encodeByHook(byte[] hookId) {
        requireHookId(hookId);
        byte[] out = new byte[7 + hookId.length + 22];
        head(out, ord, BY_HOOK);
        out[6] = (byte) hookId.length;
        System.arraycopy(hookId, 0, out, 7, hookId.length);
        tail(out, 7 + hookId.length);
        return out;
    }

    /** Whether a hook id fits a by-hook key (1..{@value #HOOK_ID_MAX_BYTES} bytes). */
    public static boolean fitsHookKey(byte[] hookId) {
        return hookId.length >= 1 && hookId.length <= HOOK_ID_MAX_BYTES;
    }

    /** The slot key of a delivery. */
    public static byte[] slotKey(long ord, long seq, int sink, int slot) {
        Ordinals.requireNonNegative("seq", seq);
        Ordinals.requireSink(sink);
        byte[] out = new byte[SLOT_KEY_LENGTH];
        head(out, Ordinals.requireTenant(ord), SLOT);
        BigEndian.putU64(out, 6, seq);
        BigEndian.putU16(out, 14, sink);
        BigEndian.putU16(out, 16, slot);
        return out;
    }

    /** The value of a slot key: the entry that holds it. */
    public byte[] slotValue() {
        byte[] out = new byte[SLOT_VALUE_LENGTH];
        BigEndian.putU64(out, 0, at);
        BigEndian.putU32(out, 8, attempt);
        return out;
    }

    /** The entry named by a slot value of this delivery ({@code ord}, {@code seq}, {@code sink}). */
    public static AttemptKey ofSlotValue(long ord, long seq, int sink, byte[] value) {
        if (value == null || value.length != SLOT_VALUE_LENGTH) {
            throw new KeyFormatException("attempt slot value", SLOT_VALUE_LENGTH + " bytes <<at::64, attempt::32>>",
                    value);
        }
        try {
            return new AttemptKey(ord, BigEndian.u64(value, 0), seq, sink, (int) BigEndian.u32(value, 8));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("attempt slot value", "at < 2^63 and attempt < 2^31", value);
        }
    }

    /** Decodes a by-tenant key; refuses anything else. */
    public static AttemptKey decodeByTenant(byte[] key) {
        if (key == null || key.length != TENANT_KEY_LENGTH || key[0] != Prefixes.ATTEMPTS || key[5] != BY_TENANT) {
            throw new KeyFormatException("attempt by tenant", TENANT_KEY_LENGTH + " bytes starting with 'H' ord 't'",
                    key);
        }
        return decodeTail(key, 6, "attempt by tenant");
    }

    /** Decodes a by-hook key; refuses anything else. */
    public static AttemptKey decodeByHook(byte[] key) {
        if (key == null || key.length < 30 || key[0] != Prefixes.ATTEMPTS || key[5] != BY_HOOK
                || key.length != 29 + (key[6] & 0xFF)) {
            throw new KeyFormatException("attempt by hook", "'H' ord 'h' len id and 22 bytes", key);
        }
        return decodeTail(key, 7 + (key[6] & 0xFF), "attempt by hook");
    }

    /** The ordinal of any key of the family (not a sentinel). */
    public static long ordOf(byte[] key) {
        if (key == null || key.length < 6 || key[0] != Prefixes.ATTEMPTS || FAMILY.isSentinel(key)) {
            throw new KeyFormatException("attempt", "'H' ord and a sub-family byte", key);
        }
        return Ordinals.requireTenant(BigEndian.u32(key, 1));
    }

    /** Every key of one tenant's history (all three sub-families). */
    public static KeySpan tenantAll(long ord) {
        byte[] prefix = new byte[5];
        prefix[0] = Prefixes.ATTEMPTS;
        BigEndian.putU32(prefix, 1, Ordinals.requireTenant(ord));
        return KeySpan.prefix(prefix);
    }

    /** One tenant's by-tenant keys, newest first. */
    public static KeySpan tenantRange(long ord) {
        byte[] prefix = new byte[6];
        head(prefix, Ordinals.requireTenant(ord), BY_TENANT);
        return KeySpan.prefix(prefix);
    }

    /** One hook id's by-hook keys in tenant {@code ord}, newest first. */
    public static KeySpan hookRange(long ord, byte[] hookId) {
        requireHookId(hookId);
        byte[] prefix = new byte[7 + hookId.length];
        head(prefix, Ordinals.requireTenant(ord), BY_HOOK);
        prefix[6] = (byte) hookId.length;
        System.arraycopy(hookId, 0, prefix, 7, hookId.length);
        return KeySpan.prefix(prefix);
    }

    /** The tenants' part of the family after tenant {@code ord} (to find the next tenant with history). */
    public static KeySpan tenantsAfter(long ord) {
        byte[] from = new byte[5];
        from[0] = Prefixes.ATTEMPTS;
        BigEndian.putU32(from, 1, ord + 1);
        return new KeySpan(from, FAMILY.hi());
    }

    private static void head(byte[] out, long ord, byte sub) {
        out[0] = Prefixes.ATTEMPTS;
        BigEndian.putU32(out, 1, ord);
        out[5] = sub;
    }

    private void tail(byte[] out, int offset) {
        BigEndian.putU64(out, offset, ~at);
        BigEndian.putU64(out, offset + 8, seq);
        BigEndian.putU16(out, offset + 16, sink);
        BigEndian.putU32(out, offset + 18, attempt);
    }

    private static AttemptKey decodeTail(byte[] key, int offset, String what) {
        try {
            return new AttemptKey(BigEndian.u32(key, 1), ~BigEndian.u64(key, offset), BigEndian.u64(key, offset + 8),
                    BigEndian.u16(key, offset + 16), (int) BigEndian.u32(key, offset + 18));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException(what, "ord 1..0xFFFFFFFE, at < 2^63, attempt < 2^31", key);
        }
    }

    private static void requireHookId(byte[] hookId) {
        if (!fitsHookKey(hookId)) {
            throw new IllegalArgumentException("a hook id in an attempt key is 1.." + HOOK_ID_MAX_BYTES + " bytes: "
                    + hookId.length);
        }
    }
}
