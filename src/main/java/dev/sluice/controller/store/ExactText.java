package dev.sluice.controller.store;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.UUID;

/**
 * Texts of a cached finished Workload kept as numbers, only when the number gives back the very same text: a uid as
 * two longs when it is a canonical (lower-case) UUID, a resourceVersion as a long when it is a plain decimal, a time
 * as epoch seconds when it is RFC 3339 in UTC to the second ({@code 2025-01-02T03:04:05Z}, what the API server
 * writes). Any other text (an upper-case uid, a fraction of a second, an offset) is kept as it is by the caller, so
 * a reader never sees a text changed. {@link #NONE} stands for "not a number: see the text".
 */
final class ExactText {

    /** No number: the value is kept as text (or is null). No valid value is this. */
    static final long NONE = Long.MIN_VALUE;

    private ExactText() {
    }

    /** Epoch seconds of a time whose text {@link #time} gives back exactly, else {@link #NONE}. */
    static long seconds(String text) {
        if (text == null || text.length() != 20 || text.charAt(19) != 'Z') {
            return NONE; // not the API server's form (also catches fractions and offsets cheaply)
        }
        try {
            Instant t = Instant.parse(text);
            return t.getNano() == 0 && t.toString().equals(text) ? t.getEpochSecond() : NONE;
        } catch (DateTimeParseException e) {
            return NONE;
        }
    }

    /** The text of epoch seconds got from {@link #seconds}. */
    static String time(long seconds) {
        return Instant.ofEpochSecond(seconds).toString();
    }

    /** The value of a non-negative plain decimal ("0", "1234", no sign, no leading zero) that fits a long, else {@link #NONE}. */
    static long decimal(String text) {
        if (text == null || text.isEmpty() || text.length() > 18 || (text.length() > 1 && text.charAt(0) == '0')) {
            return NONE; // 18 digits always fit a long
        }
        long v = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return NONE;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** The UUID of a canonical uid (36 characters, lower-case hex, as {@link UUID#toString} writes it), else null. */
    static UUID uuid(String text) {
        if (text == null || text.length() != 36) {
            return null;
        }
        try {
            UUID u = UUID.fromString(text);
            return u.toString().equals(text) ? u : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
