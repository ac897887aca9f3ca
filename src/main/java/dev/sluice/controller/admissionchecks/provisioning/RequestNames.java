package dev.sluice.controller.admissionchecks.provisioning;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names as Kueue gives them: a ProvisioningRequest is {@code <workload>-<check>-<attempt>}, its PodTemplates
 * {@code ppt-<request>-<pod set>}; a name longer than an object name may be is cut and ends in 5 hex digits of its
 * SHA-1 ({@code limitObjectName}).
 */
final class RequestNames {

    private static final int HASH_LENGTH = 5;
    /** 253, the longest object name, less the '-' and the hash. */
    private static final int MAX_PREFIX_LENGTH = 252 - HASH_LENGTH;
    static final String POD_TEMPLATES_PREFIX = "ppt";

    private RequestNames() {
    }

    static String request(String workload, String check, int attempt) {
        return limit(workload + "-" + check + "-" + attempt);
    }

    static String prefix(String workload, String check) {
        return limit(workload + "-" + check + "-");
    }

    static String podTemplate(String request, String podSet) {
        return limit(POD_TEMPLATES_PREFIX + "-" + request + "-" + podSet);
    }

    /** Whether the request is one of this Workload's for this check (any attempt). */
    static boolean matches(String request, String workload, String check) {
        return attemptPattern(workload, check).matcher(request).matches();
    }

    /** The attempt a request's name ends in; 1 when it has none (Kueue logs that and takes 1). */
    static int attempt(String request, String workload, String check) {
        Matcher m = attemptPattern(workload, check).matcher(request);
        if (m.matches()) {
            try {
                return Integer.parseInt(m.group(1));
            } catch (NumberFormatException e) {
                return 1;
            }
        }
        return 1;
    }

    private static Pattern attemptPattern(String workload, String check) {
        return Pattern.compile("^" + Pattern.quote(prefix(workload, check)) + "([0-9]+)$");
    }

    static String limit(String fullName) {
        if (fullName.length() <= MAX_PREFIX_LENGTH) {
            return fullName;
        }
        try {
            byte[] sha = MessageDigest.getInstance("SHA-1").digest(fullName.getBytes(StandardCharsets.UTF_8));
            return fullName.substring(0, MAX_PREFIX_LENGTH) + "-" + HexFormat.of().formatHex(sha).substring(0, HASH_LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every Java runtime", e);
        }
    }
}
