package dev.sluice.dashboard;

import dev.sluice.webhook.TestTls;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium through the system chromedriver (nothing is downloaded), for the dashboard's browser
 * tests: started with the flags and a fresh profile, and a wait that looks again while the page redraws.
 */
public final class HeadlessChromium {
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private HeadlessChromium() {
    }

    /** In CI a missing browser is a failure (CI installs it); on a workstation a loud skip. */
    public static void require() {
        if (!available()) {
            Assumptions.abort(PROBLEM);
        }
    }

    private static final String PROBLEM = "the dashboard's browser test needs " + CHROMIUM + " and " + CHROMEDRIVER
            + " (apt-get install chromium chromium-driver; .ci/run installs them)";

    /** For a test whose browser part is extra: whether to run it; in CI a missing browser is a failure. */
    public static boolean available() {
        if (Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER)) {
            return true;
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError(PROBLEM);
        }
        System.err.println("SKIPPED: " + PROBLEM);
        return false;
    }

    public static ChromeDriver start() throws IOException {
        Path profile = Files.createTempDirectory("sluice-chromium-");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless",
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--no-first-run", "--user-data-dir=" + profile, "--window-size=1400,1000",
                // the management port is HTTPS with the test certificate: trust that one key, and no other
                "--ignore-certificate-errors-spki-list=" + spkiHash(TestTls.files().certFile()));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** Chromium's pin of a certificate: base64 of the SHA-256 of its SubjectPublicKeyInfo. */
    static String spkiHash(Path pem) throws IOException {
        try (InputStream in = Files.newInputStream(pem)) {
            byte[] spki = CertificateFactory.getInstance("X.509").generateCertificate(in).getPublicKey().getEncoded();
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(spki));
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the test certificate " + pem, e);
        }
    }

    /** Polls the page until the check gives something (not null, not false, not ""), for at most 30 s. */
    public record Wait(ChromeDriver browser) {
        public <T> T until(Function<ChromeDriver, T> check) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            RuntimeException last = null;
            while (System.nanoTime() < deadline) {
                try {
                    T t = check.apply(browser);
                    if (t != null && !Boolean.FALSE.equals(t) && !"".equals(t)) {
                        return t;
                    }
                } catch (org.openqa.selenium.StaleElementReferenceException | org.openqa.selenium.NoSuchElementException
                        | org.openqa.selenium.ElementNotInteractableException e) {
                    last = e; // the page redraws while we look
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
            throw new AssertionError("the dashboard did not show it within 30 s; page now: "
                    + browser.findElement(By.tagName("body")).getText(), last);
        }
    }

    /** The text of the first element the selector finds, "" when none. */
    public static String text(ChromeDriver b, String css) {
        List<WebElement> found = b.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.get(0).getText();
    }
}
