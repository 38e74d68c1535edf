package io.ankusa.dispatch.http;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.spec.EdECPoint;
import java.util.Arrays;

/**
 * The two pieces of Ed25519 (RFC 8032) the JDK does not expose: the public key of a 32-byte
 * private key (seed), and the check that 32 bytes encode a point of the curve. The JDK's
 * {@code Ed25519} provider does the signing and verifying; this class only does what a
 * {@code whsk_} or {@code whpk_} key needs when it is read.
 *
 * <p>Plain {@link BigInteger} arithmetic on extended coordinates, with RFC 8032's unified
 * addition formula; it is not constant-time, which is acceptable here because it runs once when a
 * key is parsed, on the sender's own key, and never on attacker-chosen input next to a secret.
 */
final class Ed25519Points {

    /** The length of a seed, an encoded point and so of both key forms, in bytes. */
    static final int BYTES = 32;

    private static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));
    private static final BigInteger D = BigInteger.valueOf(-121_665)
            .multiply(BigInteger.valueOf(121_666).modInverse(P)).mod(P);
    private static final BigInteger TWO_D = D.add(D).mod(P);
    private static final BigInteger BASE_X =
            new BigInteger("15112221349535400772501151409588531511454012693041857206046113283949847762202");
    private static final BigInteger BASE_Y =
            new BigInteger("46316835694926478169428394003475163141307993866256225615783033603165251855960");
    private static final BigInteger[] BASE = {BASE_X, BASE_Y, BigInteger.ONE, BASE_X.multiply(BASE_Y).mod(P)};
    private static final BigInteger[] IDENTITY = {BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE, BigInteger.ZERO};

    private Ed25519Points() {
    }

    /** RFC 8032 §5.1.5: the encoded public key of {@code seed}. */
    static byte[] publicKeyOf(byte[] seed) {
        byte[] hash = sha512(seed);
        byte[] scalar = Arrays.copyOf(hash, BYTES);
        scalar[0] &= (byte) 0xF8;
        scalar[BYTES - 1] &= 0x7F;
        scalar[BYTES - 1] |= 0x40;
        return encode(multiply(new BigInteger(1, reversed(scalar))));
    }

    /**
     * RFC 8032 §5.1.3: the point {@code encoded} names, or {@code null} when the bytes are not the
     * encoding of a point of the curve.
     */
    static EdECPoint decode(byte[] encoded) {
        if (encoded.length != BYTES) {
            return null;
        }
        byte[] littleEndian = encoded.clone();
        boolean xOdd = (littleEndian[BYTES - 1] & 0x80) != 0;
        littleEndian[BYTES - 1] &= 0x7F;
        BigInteger y = new BigInteger(1, reversed(littleEndian));
        if (y.compareTo(P) >= 0) {
            return null;
        }
        BigInteger ySquared = y.multiply(y).mod(P);
        BigInteger xSquared = ySquared.subtract(BigInteger.ONE)
                .multiply(D.multiply(ySquared).add(BigInteger.ONE).modInverse(P)).mod(P);
        if (xSquared.signum() == 0) {
            return xOdd ? null : new EdECPoint(false, y);
        }
        // Euler's criterion: x² must be a square modulo p for x to exist.
        if (!xSquared.modPow(P.subtract(BigInteger.ONE).shiftRight(1), P).equals(BigInteger.ONE)) {
            return null;
        }
        return new EdECPoint(xOdd, y);
    }

    /** The encoding of a point the JDK gives: y little-endian, x's parity in the top bit. */
    static byte[] encode(EdECPoint point) {
        byte[] encoded = littleEndian(point.getY());
        if (point.isXOdd()) {
            encoded[BYTES - 1] |= (byte) 0x80;
        }
        return encoded;
    }

    private static byte[] encode(BigInteger[] point) {
        BigInteger zInverse = point[2].modInverse(P);
        BigInteger x = point[0].multiply(zInverse).mod(P);
        BigInteger y = point[1].multiply(zInverse).mod(P);
        return encode(new EdECPoint(x.testBit(0), y));
    }

    private static BigInteger[] multiply(BigInteger scalar) {
        BigInteger[] result = IDENTITY;
        for (int bit = scalar.bitLength() - 1; bit >= 0; bit--) {
            result = add(result, result);
            if (scalar.testBit(bit)) {
                result = add(result, BASE);
            }
        }
        return result;
    }

    /** RFC 8032 §5.1.4's addition in extended coordinates (X, Y, Z, T); also right for doubling. */
    private static BigInteger[] add(BigInteger[] p, BigInteger[] q) {
        BigInteger a = p[1].subtract(p[0]).multiply(q[1].subtract(q[0])).mod(P);
        BigInteger b = p[1].add(p[0]).multiply(q[1].add(q[0])).mod(P);
        BigInteger c = p[3].multiply(TWO_D).multiply(q[3]).mod(P);
        BigInteger d = p[2].add(p[2]).multiply(q[2]).mod(P);
        BigInteger e = b.subtract(a);
        BigInteger f = d.subtract(c);
        BigInteger g = d.add(c);
        BigInteger h = b.add(a);
        return new BigInteger[] {e.multiply(f).mod(P), g.multiply(h).mod(P), f.multiply(g).mod(P),
            e.multiply(h).mod(P)};
    }

    private static byte[] littleEndian(BigInteger value) {
        byte[] bigEndian = value.toByteArray();
        byte[] result = new byte[BYTES];
        for (int i = 0; i < BYTES && i < bigEndian.length; i++) {
            result[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return result;
    }

    private static byte[] reversed(byte[] bytes) {
        byte[] result = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            result[i] = bytes[bytes.length - 1 - i];
        }
        return result;
    }

    private static byte[] sha512(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-512").digest(input);
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-512.
            throw new IllegalStateException("SHA-512 is not available", e);
        }
    }
}
