package dev.sluice.engine;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An exact Kubernetes resource quantity ("24", "500m", "1.5", "5G", "1Gi", "2e3").
 * The engine counts in long milli-units; {@link #milliValue()} rounds up as Kubernetes' MilliValue does.
 */
public final class Quantity implements Comparable<Quantity> {
    private static final Pattern FORMAT =
            Pattern.compile("([+-]?)(\\d+(?:\\.\\d*)?|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\\d+)?");
    private static final String[] BINARY = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final String[] DECIMAL = {"k", "M", "G", "T", "P", "E"};
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);

    private final BigDecimal value;

    private Quantity(BigDecimal value) {
        this.value = value;
    }

    /** Parses a Kubernetes quantity string exactly; throws IllegalArgumentException saying what is wrong. */
    public static Quantity parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("quantity is missing (null); write a number such as \"24\", \"500m\" or \"1Gi\"");
        }
        String s = text.trim();
        Matcher m = FORMAT.matcher(s);
        if (s.isEmpty() || !m.matches()) {
            throw new IllegalArgumentException("quantity \"" + text + "\" is not a Kubernetes quantity; write a number"
                    + " with an optional suffix (m, k, M, G, Ki, Mi, Gi, e3...), such as \"24\", \"500m\" or \"1Gi\"");
        }
        BigDecimal number = new BigDecimal(m.group(2).endsWith(".") ? m.group(2) + "0" : m.group(2));
        if ("-".equals(m.group(1))) {
            number = number.negate();
        }
        String suffix = m.group(3);
        BigDecimal v = suffix == null ? number : number.multiply(multiplier(suffix, text));
        return new Quantity(v);
    }

    private static BigDecimal multiplier(String suffix, String text) {
        for (int i = 0; i < BINARY.length; i++) {
            if (BINARY[i].equals(suffix)) {
                return new BigDecimal(BigInteger.ONE.shiftLeft(10 * (i + 1)));
            }
        }
        for (int i = 0; i < DECIMAL.length; i++) {
            if (DECIMAL[i].equals(suffix)) {
                return BigDecimal.ONE.scaleByPowerOfTen(3 * (i + 1));
            }
        }
        switch (suffix) {
            case "m":
                return BigDecimal.ONE.scaleByPowerOfTen(-3);
            case "u":
                return BigDecimal.ONE.scaleByPowerOfTen(-6);
            case "n":
                return BigDecimal.ONE.scaleByPowerOfTen(-9);
            default:
                int exp;
                try {
                    exp = Integer.parseInt(suffix.substring(1).replace("+", ""));
                } catch (NumberFormatException e) {
                    exp = Integer.MAX_VALUE;
                }
                if (Math.abs((long) exp) > 100) {
                    throw new IllegalArgumentException("quantity \"" + text + "\" has exponent " + suffix.substring(1)
                            + ", out of range; use a smaller exponent");
                }
                return BigDecimal.ONE.scaleByPowerOfTen(exp);
        }
    }

    /** A quantity of this many milli-units. */
    public static Quantity ofMilli(long milli) {
        return new Quantity(BigDecimal.valueOf(milli, 3));
    }

    /** Parses and converts to milli-units in one go. */
    public static long parseMilli(String text) {
        return parse(text).milliValue();
    }

    /** The exact value. */
    public BigDecimal value() {
        return value;
    }

    /** The value in milli-units, rounded up (towards positive infinity) like Kubernetes' MilliValue. */
    public long milliValue() {
        BigDecimal milli = value.scaleByPowerOfTen(3).setScale(0, RoundingMode.CEILING);
        if (milli.compareTo(LONG_MAX) > 0 || milli.compareTo(LONG_MIN) < 0) {
            throw new IllegalArgumentException("quantity " + value.toPlainString()
                    + " is too large to count in milli-units (limit about 9.2e15)");
        }
        return milli.longValueExact();
    }

    /**
     * Canonical short text for milli-units: "500m", "24", "24k", "1Gi"; a binary suffix is used only for exact
     * multiples of 1Mi (memory-like values), so 2048 cpu stays "2048".
     */
    public static String formatMilli(long milli) {
        if (milli % 1000 != 0) {
            return milli + "m";
        }
        long units = milli / 1000;
        if (units == 0) {
            return "0";
        }
        long abs = Math.abs(units);
        if (abs % (1L << 20) == 0) {
            int i = 0;
            while (i + 1 < BINARY.length && abs % (1L << (10 * (i + 2))) == 0) {
                i++;
            }
            return (units / (1L << (10 * (i + 1)))) + BINARY[i];
        }
        int i = -1;
        long div = 1;
        while (i + 1 < DECIMAL.length && abs % (div * 1000) == 0) {
            div *= 1000;
            i++;
        }
        return i < 0 ? Long.toString(units) : (units / div) + DECIMAL[i];
    }

    @Override
    public int compareTo(Quantity o) {
        return value.compareTo(o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(value.stripTrailingZeros());
    }

    @Override
    public String toString() {
        return value.stripTrailingZeros().toPlainString();
    }
}
