package io.ankusa.admin.route;

/** Strict parsing of the numbers in paths, parameters and bodies: digits only, in range, else a 400. */
final class Numbers {

    private Numbers() {
    }

    static long parseLong(String what, String text, long min, long max) {
        if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw ApiException.badRequest(what + " must be a number in " + min + ".." + max + ": '" + text + "'");
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(what + " must be a number in " + min + ".." + max + ": '" + text + "'");
        }
        if (value < min || value > max) {
            throw ApiException.badRequest(what + " must be in " + min + ".." + max + ": " + value);
        }
        return value;
    }

    static int parseInt(String what, String text, int min, int max) {
        return (int) parseLong(what, text, min, max);
    }
}
