package dev.sluice.jobs;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Names of the Workload that stands for a job, as Kueue v0.14 computes them
 * ({@code jobframework.GetWorkloadNameForOwnerWithGVK}): {@code <lowercase kind>-<job name>}, cut to 247
 * characters, then {@code -} and the first 5 hex digits of
 * {@code sha1(kind + "\n" + group + "\n" + name + "\n" + uid)}; at most 253 characters in all, and the same
 * name Kueue would give, so a cluster can move between Kueue and Sluice.
 */
public final class WorkloadNames {
    /** Longest object name (a DNS subdomain). */
    public static final int MAX_LENGTH = 253;
    static final int HASH_LENGTH = 5;
    static final int MAX_PREFIX_LENGTH = MAX_LENGTH - 1 - HASH_LENGTH;

    private WorkloadNames() {
    }

    /**
     * @param kind  the job's kind as written (e.g. {@code JobSet}); lower-cased in the prefix, not in the hash
     * @param group the job's API group ({@code ""} for the core group)
     */
    public static String forJob(String kind, String group, String name, String uid) {
        String prefix = kind.toLowerCase(Locale.ROOT) + "-" + name;
        if (prefix.length() > MAX_PREFIX_LENGTH) {
            prefix = prefix.substring(0, MAX_PREFIX_LENGTH);
        }
        return prefix + "-" + hash(kind, group, name, uid).substring(0, HASH_LENGTH);
    }

    private static String hash(String kind, String group, String name, String uid) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            String input = kind + "\n" + group + "\n" + name + "\n" + uid;
            return HexFormat.of().formatHex(sha1.digest(input.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every Java platform", e);
        }
    }
}
