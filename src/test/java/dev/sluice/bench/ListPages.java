package dev.sluice.bench;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * A LIST with {@code limit} (and {@code continue}) as kube-apiserver pages it: fabric8's CRUD mock ignores both and
 * answers every stored object in one response, so a controller's paged start-up against it read one response of the
 * whole history. Here each page holds at most {@code limit} objects in {@code namespace/name} order, with
 * {@code metadata.continue} while more may follow; every page carries the resource version of the first, as all pages
 * of one LIST do, so an informer's watch from it sees (again) whatever changed while it paged (this store is not a
 * snapshot: an object changed meanwhile may be listed in its new state, or missed by the list and sent by the watch).
 * No {@code remainingItemCount}: it is optional, and counting would cost a walk of the rest on every page.
 */
final class ListPages {

    private ListPages() {
    }

    /** What a paged LIST asks: objects per page, and where the last page stopped (null for the first page). */
    record Query(long limit, Token token) {
    }

    /** A continue token: the resource version of the LIST's first page, and the key its previous page ended at. */
    record Token(String resourceVersion, String after) {
        String encode() {
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString((resourceVersion + "\n" + after).getBytes(StandardCharsets.UTF_8));
        }

        /** The token, or an IllegalArgumentException saying why it is not one of ours. */
        static Token decode(String text) {
            String decoded;
            try {
                decoded = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("continue token " + text + " is not base64url: " + e.getMessage());
            }
            int nl = decoded.indexOf('\n');
            if (nl <= 0) {
                throw new IllegalArgumentException("continue token " + text + " was not issued by this server");
            }
            return new Token(decoded.substring(0, nl), decoded.substring(nl + 1));
        }
    }

    /**
     * The paging a GET asks for; null when it asks for none (no positive {@code limit}), or is a watch, which the
     * mock answers as it always did.
     */
    static Query of(String path) {
        int q = path.indexOf('?');
        if (q < 0) {
            return null;
        }
        long limit = 0;
        String token = null;
        for (String param : path.substring(q + 1).split("&")) {
            int eq = param.indexOf('=');
            String key = eq < 0 ? param : param.substring(0, eq);
            String value = eq < 0 ? "" : URLDecoder.decode(param.substring(eq + 1), StandardCharsets.UTF_8);
            switch (key) {
                case "watch" -> {
                    if ("true".equals(value) || "1".equals(value)) {
                        return null;
                    }
                }
                case "limit" -> limit = value.isEmpty() ? 0 : Long.parseLong(value);
                case "continue" -> token = value.isEmpty() ? null : value;
                default -> {
                }
            }
        }
        if (limit <= 0) {
            return null;
        }
        return new Query(limit, token == null ? null : Token.decode(token));
    }

    /** The {@code resourceVersion} a watch starts from; null when it names none ("" or "0": from what is stored). */
    static Long watchedFrom(String path) {
        int q = path.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String param : path.substring(q + 1).split("&")) {
            if (param.startsWith("resourceVersion=")) {
                String v = URLDecoder.decode(param.substring("resourceVersion=".length()), StandardCharsets.UTF_8);
                try {
                    long rv = Long.parseLong(v);
                    return rv <= 0 ? null : rv;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** The body of one page, as the mock's own LIST answers with the page's items and continue token. */
    static String body(List<String> items, String resourceVersion, String continueToken) {
        int size = 128;
        for (String item : items) {
            size += item.length() + 1;
        }
        StringBuilder sb = new StringBuilder(size).append("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[");
        for (int i = 0; i < items.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(items.get(i));
        }
        sb.append("],\"metadata\":{\"resourceVersion\":\"").append(resourceVersion).append('"');
        if (continueToken != null) {
            sb.append(",\"continue\":\"").append(continueToken).append('"');
        }
        return sb.append("}}").toString();
    }
}
