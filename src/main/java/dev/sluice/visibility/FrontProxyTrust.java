package dev.sluice.visibility;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the API server tells aggregated servers about its front proxy, from the ConfigMap
 * kube-system/extension-apiserver-authentication: the CA that signs the proxy's client certificate, the names that
 * certificate may carry, and the headers that carry the user. Re-read at most once a minute.
 */
final class FrontProxyTrust {
    static final String NAMESPACE = "kube-system";
    static final String NAME = "extension-apiserver-authentication";
    private static final long REFRESH_MS = 60_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One reading of the ConfigMap. */
    record Settings(Set<TrustAnchor> anchors, Set<String> allowedNames, List<String> userHeaders,
            List<String> groupHeaders, List<String> extraPrefixes) {
    }

    private final KubernetesClient client;
    private volatile Settings settings;
    private volatile String problem = "not read yet";
    private volatile long readAtMillis;

    FrontProxyTrust(KubernetesClient client) {
        this.client = client;
    }

    /** The current settings, or null (see {@link #problem()}). */
    Settings settings() {
        long now = System.currentTimeMillis();
        if (now - readAtMillis >= REFRESH_MS || (settings == null && now - readAtMillis >= 2_000)) {
            synchronized (this) {
                if (now - readAtMillis >= REFRESH_MS || (settings == null && now - readAtMillis >= 2_000)) {
                    readAtMillis = now;
                    reload();
                }
            }
        }
        return settings;
    }

    String problem() {
        return problem;
    }

    private void reload() {
        try {
            ConfigMap cm = client.configMaps().inNamespace(NAMESPACE).withName(NAME).get();
            if (cm == null || cm.getData() == null || cm.getData().get("requestheader-client-ca-file") == null) {
                problem = "ConfigMap " + NAMESPACE + "/" + NAME + " has no requestheader-client-ca-file: the API server"
                        + " runs without --requestheader-client-ca-file, so it cannot call aggregated APIs";
                settings = null;
                return;
            }
            Map<String, String> d = cm.getData();
            settings = new Settings(anchors(d.get("requestheader-client-ca-file")),
                    new HashSet<>(list(d.get("requestheader-allowed-names"), List.of())),
                    list(d.get("requestheader-username-headers"), List.of("X-Remote-User")),
                    list(d.get("requestheader-group-headers"), List.of("X-Remote-Group")),
                    list(d.get("requestheader-extra-headers-prefix"), List.of("X-Remote-Extra-")));
            problem = null;
        } catch (Exception e) {
            // keep the last good settings: a failed re-read must not lock everyone out
            problem = "cannot read ConfigMap " + NAMESPACE + "/" + NAME + ": " + e.getMessage();
        }
    }

    private static Set<TrustAnchor> anchors(String pem) throws Exception {
        Set<TrustAnchor> out = new HashSet<>();
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        for (var c : cf.generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
            out.add(new TrustAnchor((X509Certificate) c, null));
        }
        return out;
    }

    private static List<String> list(String json, List<String> absent) throws Exception {
        if (json == null || json.isBlank()) {
            return absent;
        }
        List<String> l = JSON.readValue(json, new TypeReference<List<String>>() { });
        return l.isEmpty() ? absent : l;
    }

    /**
     * Null if the chain is the front proxy's (signed by the CA, for client authentication, with an allowed common
     * name), else why not.
     */
    static String verify(Settings s, List<X509Certificate> chain) {
        if (chain.isEmpty()) {
            return "no client certificate: only the API server's front proxy may call this server";
        }
        try {
            PKIXParameters params = new PKIXParameters(s.anchors());
            params.setRevocationEnabled(false);
            CertPathValidator.getInstance("PKIX").validate(
                    CertificateFactory.getInstance("X.509").generateCertPath(new ArrayList<>(chain)), params);
            List<String> usage = chain.get(0).getExtendedKeyUsage();
            if (usage != null && !usage.contains("1.3.6.1.5.5.7.3.2") && !usage.contains("2.5.29.37.0")) {
                return "the client certificate is not for client authentication";
            }
        } catch (Exception e) {
            return "the client certificate is not signed by the requestheader client CA: " + e.getMessage();
        }
        String cn = commonName(chain.get(0));
        if (!s.allowedNames().isEmpty() && !s.allowedNames().contains(cn)) {
            return "the client certificate's common name " + cn + " is not among requestheader-allowed-names "
                    + s.allowedNames();
        }
        return null;
    }

    private static String commonName(X509Certificate c) {
        for (String part : c.getSubjectX500Principal().getName().split(",")) {
            if (part.startsWith("CN=")) {
                return part.substring(3);
            }
        }
        return "";
    }
}
