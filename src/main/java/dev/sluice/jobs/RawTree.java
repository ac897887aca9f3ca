package dev.sluice.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed reads and writes on a job's raw JSON tree (maps and lists as Jackson/YAML produce them), with errors
 * that name the field. Edits stay in the raw tree so untouched fields keep their exact form (a webhook
 * patch then touches only what changed).
 */
final class RawTree {
    private RawTree() {
    }

    /** The object at {@code key}, or null when absent; a non-object is an error. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Map<String, Object> parent, String key, String job, String path) {
        Object v = parent == null ? null : parent.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Map)) {
            throw new InvalidJobException(job, path, "must be an object, found " + describe(v),
                    "write it as a YAML mapping");
        }
        return (Map<String, Object>) v;
    }

    /** The object at {@code key}, created empty when absent. */
    static Map<String, Object> objectOrCreate(Map<String, Object> parent, String key, String job, String path) {
        Map<String, Object> m = object(parent, key, job, path);
        if (m == null) {
            m = new LinkedHashMap<>();
            parent.put(key, m);
        }
        return m;
    }

    /** The list at {@code key}, or null when absent; a non-list is an error. */
    @SuppressWarnings("unchecked")
    static List<Object> list(Map<String, Object> parent, String key, String job, String path) {
        Object v = parent == null ? null : parent.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof List)) {
            throw new InvalidJobException(job, path, "must be a list, found " + describe(v),
                    "write it as a YAML sequence");
        }
        return (List<Object>) v;
    }

    /** The list at {@code key}, created empty when absent. */
    static List<Object> listOrCreate(Map<String, Object> parent, String key, String job, String path) {
        List<Object> l = list(parent, key, job, path);
        if (l == null) {
            l = new ArrayList<>();
            parent.put(key, l);
        }
        return l;
    }

    /** Element {@code index} of a list, which must be an object. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> element(List<Object> list, int index, String job, String path) {
        Object v = list.get(index);
        if (!(v instanceof Map)) {
            throw new InvalidJobException(job, path, "must be an object, found " + describe(v),
                    "write each entry as a YAML mapping");
        }
        return (Map<String, Object>) v;
    }

    /** A whole non-negative number at {@code key} (int32 range), or null when absent. */
    static Integer count(Map<String, Object> parent, String key, String job, String path) {
        Object v = parent == null ? null : parent.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            long l = ((Number) v).longValue();
            if (l >= 0 && l <= Integer.MAX_VALUE) {
                return (int) l;
            }
        }
        throw new InvalidJobException(job, path, "must be a whole number >= 0, found " + describe(v),
                "set it to a count such as 1, or remove it to use the default");
    }

    /** A string at {@code key}, or null when absent; a non-string is an error. */
    static String string(Map<String, Object> parent, String key, String job, String path) {
        Object v = parent == null ? null : parent.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new InvalidJobException(job, path, "must be a string, found " + describe(v), "quote the value");
        }
        return s;
    }

    /** A boolean at {@code key}; absent is false. */
    static boolean flag(Map<String, Object> parent, String key, String job, String path) {
        Object v = parent == null ? null : parent.get(key);
        if (v == null) {
            return false;
        }
        if (!(v instanceof Boolean b)) {
            throw new InvalidJobException(job, path, "must be true or false, found " + describe(v),
                    "write true or false without quotes");
        }
        return b;
    }

    static String describe(Object v) {
        if (v instanceof Map) {
            return "an object";
        }
        if (v instanceof List) {
            return "a list";
        }
        if (v instanceof String s) {
            return "\"" + s + "\"";
        }
        return String.valueOf(v);
    }
}
