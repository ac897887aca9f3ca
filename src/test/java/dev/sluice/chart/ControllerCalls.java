package dev.sluice.chart;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** src/test/resources/chart/controller-calls.txt: the API calls the controller makes, per enabled kind. */
record ControllerCalls(List<Call> calls) {

    /** One permission: group ("" for core), resource (with "/subresource"), verb; namespaced = Role in the release namespace. */
    record Call(String kind, String group, String resource, String verb, boolean namespaced) {
        String key() {
            return group + "/" + resource + "/" + verb;
        }
    }

    static ControllerCalls load() {
        try (InputStream in = ControllerCalls.class.getResourceAsStream("/chart/controller-calls.txt")) {
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static ControllerCalls parse(String text) {
        List<Call> out = new ArrayList<>();
        int n = 0;
        for (String raw : text.split("\n")) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String kind = null;
            if (line.startsWith("[")) {
                kind = line.substring(1, line.indexOf(']'));
                line = line.substring(line.indexOf(']') + 1).strip();
            }
            boolean namespaced = line.endsWith(" namespaced");
            if (namespaced) {
                line = line.substring(0, line.length() - " namespaced".length()).strip();
            }
            int first = line.indexOf('/');
            int last = line.lastIndexOf('/');
            if (first < 0 || first == last) {
                throw new IllegalArgumentException("controller-calls.txt line " + n + ": '" + raw
                        + "' is not apiGroup/resource/verb (write the core group as nothing: /events/create)");
            }
            out.add(new Call(kind, line.substring(0, first), line.substring(first + 1, last), line.substring(last + 1),
                    namespaced));
        }
        return new ControllerCalls(out);
    }

    /** group/resource/verb keys the chart must grant cluster-wide (namespaced=false) or in its Role. */
    Set<String> expected(Set<String> enabledKinds, boolean namespaced) {
        Set<String> keys = new TreeSet<>();
        for (Call c : calls) {
            if (c.namespaced() == namespaced && (c.kind() == null || enabledKinds.contains(c.kind()))) {
                keys.add(c.key());
            }
        }
        return keys;
    }

    Set<String> kinds() {
        Set<String> kinds = new TreeSet<>();
        calls.stream().filter(c -> c.kind() != null).forEach(c -> kinds.add(c.kind()));
        return kinds;
    }
}
