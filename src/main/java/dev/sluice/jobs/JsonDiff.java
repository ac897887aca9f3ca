package dev.sluice.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A small RFC 6902 JSON Patch from one tree to another, for admission responses: only add, replace and
 * remove. Objects are compared key by key (a new key is added with its whole subtree, so missing parents
 * are created); arrays element by element over the common length, then the tail is appended or removed
 * (from the end, so indexes stay valid); anything else that differs is replaced. Numbers compare by value,
 * so 4 and 4.0 need no patch. Keys are escaped per RFC 6901 ({@code ~} as {@code ~0}, {@code /} as
 * {@code ~1}).
 */
public final class JsonDiff {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonDiff() {
    }

    /** The operations turning {@code from} into {@code to}; empty when they are equal. */
    public static ArrayNode diff(JsonNode from, JsonNode to) {
        List<ObjectNode> ops = new ArrayList<>();
        walk("", from, to, ops);
        ArrayNode patch = NODES.arrayNode();
        patch.addAll(ops);
        return patch;
    }

    /** A key escaped as a JSON Pointer reference token. */
    public static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    private static void walk(String path, JsonNode from, JsonNode to, List<ObjectNode> ops) {
        if (same(from, to)) {
            return;
        }
        if (from.isObject() && to.isObject()) {
            Iterator<String> names = from.fieldNames();
            while (names.hasNext()) {
                String name = names.next();
                if (!to.has(name)) {
                    ops.add(op("remove", path + "/" + escape(name), null));
                }
            }
            Iterator<String> targetNames = to.fieldNames();
            while (targetNames.hasNext()) {
                String name = targetNames.next();
                String child = path + "/" + escape(name);
                if (from.has(name)) {
                    walk(child, from.get(name), to.get(name), ops);
                } else {
                    ops.add(op("add", child, to.get(name)));
                }
            }
        } else if (from.isArray() && to.isArray()) {
            int common = Math.min(from.size(), to.size());
            for (int i = 0; i < common; i++) {
                walk(path + "/" + i, from.get(i), to.get(i), ops);
            }
            for (int i = common; i < to.size(); i++) {
                ops.add(op("add", path + "/" + i, to.get(i)));
            }
            for (int i = from.size() - 1; i >= common; i--) {
                ops.add(op("remove", path + "/" + i, null));
            }
        } else {
            ops.add(op("replace", path, to));
        }
    }

    private static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() || a.isArray()) {
            return a.getNodeType() == b.getNodeType() && a.equals((x, y) -> numericAware(x, y), b);
        }
        return a.equals(b);
    }

    private static int numericAware(JsonNode x, JsonNode y) {
        if (x.isNumber() && y.isNumber()) {
            return x.decimalValue().compareTo(y.decimalValue());
        }
        return x.equals(y) ? 0 : 1;
    }

    private static ObjectNode op(String name, String path, JsonNode value) {
        ObjectNode op = NODES.objectNode();
        op.put("op", name);
        op.put("path", path);
        if (value != null) {
            op.set("value", value.deepCopy());
        }
        return op;
    }
}
