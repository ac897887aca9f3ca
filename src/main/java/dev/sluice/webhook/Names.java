package dev.sluice.webhook;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Kubernetes' rules for names, label keys and label values; each check returns what is wrong (empty when fine). */
final class Names {
    private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS1123_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern QUALIFIED_NAME_PART = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");

    private Names() {
    }

    /** A DNS-1123 subdomain: names of ClusterQueues, ResourceFlavors, cohorts. */
    static List<String> subdomain(String value) {
        List<String> problems = new ArrayList<>();
        if (value.length() > 253) {
            problems.add("must be no more than 253 characters");
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            problems.add("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or"
                    + " '.', and must start and end with an alphanumeric character (e.g. 'example.com')");
        }
        return problems;
    }

    /** A qualified name with an optional DNS subdomain prefix: label keys, taint keys, resource names. */
    static List<String> qualifiedName(String value) {
        List<String> problems = new ArrayList<>();
        String name = value;
        int slash = value.indexOf('/');
        if (slash >= 0) {
            String prefix = value.substring(0, slash);
            name = value.substring(slash + 1);
            if (prefix.isEmpty()) {
                problems.add("prefix part must be non-empty");
            } else if (prefix.length() > 253 || !DNS1123_SUBDOMAIN.matcher(prefix).matches()) {
                problems.add("prefix part must be a lowercase RFC 1123 subdomain (e.g. 'example.com')");
            }
            if (name.contains("/")) {
                problems.add("a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an"
                        + " optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return problems;
            }
        }
        if (name.isEmpty()) {
            problems.add("name part must be non-empty");
        } else {
            if (name.length() > 63) {
                problems.add("name part must be no more than 63 characters");
            }
            if (!QUALIFIED_NAME_PART.matcher(name).matches()) {
                problems.add("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and"
                        + " end with an alphanumeric character (e.g. 'MyName', 'my.name' or '123-abc')");
            }
        }
        return problems;
    }

    /** A label value: at most 63 characters, alphanumeric at both ends, may be empty. */
    static List<String> labelValue(String value) {
        List<String> problems = new ArrayList<>();
        if (value.length() > 63) {
            problems.add("must be no more than 63 characters");
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            problems.add("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or"
                    + " '.', and must start and end with an alphanumeric character (e.g. 'MyValue', 'my_value' or"
                    + " '12345')");
        }
        return problems;
    }

    /** A DNS-1123 label (63 characters at most): e.g. a LocalQueue's name as used in the queue label. */
    static boolean isLabel(String value) {
        return value.length() <= 63 && DNS1123_LABEL.matcher(value).matches();
    }
}
