package dev.sluice.visibility;

import java.io.StringWriter;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Plays the API server's aggregator in tests: a requestheader client CA, a front-proxy client certificate it signed,
 * and an HTTPS client that presents it and names the user in X-Remote-User / X-Remote-Group.
 */
final class FrontProxy {
    final KeyPair caKey;
    final X509Certificate ca;
    final KeyPair clientKey;
    final X509Certificate client;
    private final HttpClient http;

    /** A CA and a client certificate with the given common name, for client authentication. */
    FrontProxy(String commonName) throws Exception {
        caKey = rsa();
        ca = sign(new X500Name("CN=front-proxy-ca"), caKey, new X500Name("CN=front-proxy-ca"), caKey, true);
        clientKey = rsa();
        client = sign(new X500Name("CN=" + commonName), clientKey, new X500Name("CN=front-proxy-ca"), caKey, false);
        http = client(true);
    }

    /** An HTTPS client that presents no certificate at all. */
    static HttpClient anonymous() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
        return HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(30)).build();
    }

    private HttpClient client(boolean withCert) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("proxy", clientKey.getPrivate(), new char[0], new X509Certificate[] {client});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
        kmf.init(ks, new char[0]);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(withCert ? kmf.getKeyManagers() : null, new TrustManager[] {new TrustAll()}, new SecureRandom());
        return HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(30)).build();
    }

    String caPem() throws Exception {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pem = new JcaPEMWriter(w)) {
            pem.writeObject(ca);
        }
        return w.toString();
    }

    /** GET as the front proxy, for the user (null: no user headers) in the groups. */
    HttpResponse<String> get(int port, String pathAndQuery, String user, String... groups) throws Exception {
        return send(http, port, pathAndQuery, user, groups);
    }

    static HttpResponse<String> send(HttpClient http, int port, String pathAndQuery, String user, String... groups)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://localhost:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(60)).GET();
        if (user != null) {
            b.header("X-Remote-User", user);
        }
        for (String g : groups) {
            b.header("X-Remote-Group", g);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    private static X509Certificate sign(X500Name subject, KeyPair subjectKey, X500Name issuer, KeyPair issuerKey,
            boolean isCa) throws Exception {
        Instant now = Instant.now();
        var b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(now.toEpochMilli() ^ subject.hashCode()),
                Date.from(now.minusSeconds(60)), Date.from(now.plus(Duration.ofDays(1))), subject, subjectKey.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
        if (isCa) {
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature));
        } else {
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
        }
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey.getPrivate())));
    }

    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
