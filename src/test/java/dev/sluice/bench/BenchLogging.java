package dev.sluice.bench;

import java.util.logging.Level;
import org.jboss.logmanager.LogContext;

/**
 * The harness's processes run with the test classpath, where JBoss LogManager (from Quarkus) is the logging backend
 * of slf4j and of {@link System.Logger}. Left unconfigured it answers "loggable" at every level, so every debug line
 * of fabric8, Vert.x, Netty and the JDK's HTTP client is formatted and then dropped (no handler prints it): a sixth
 * of the load driver's CPU with the JDK's client. Each process sets INFO before anything logs.
 */
final class BenchLogging {

    private BenchLogging() {
    }

    static void quiet() {
        // the System.Logger finder first: found after the log context exists, it warns about JUL's LogManager
        System.getLogger(BenchLogging.class.getName());
        LogContext.getLogContext().getLogger("").setLevel(Level.INFO);
    }
}
