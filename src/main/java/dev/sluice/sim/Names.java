package dev.sluice.sim;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Deterministic stand-ins for what the apiserver makes up: uids and generateName suffixes. */
final class Names {

    /** The apiserver's alphabet for generated names (no vowels, no look-alikes). */
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private Names() {
    }

    /** A name-based (version 3) UUID of the object's identity, stable across runs. */
    static String uid(String identity) {
        return UUID.nameUUIDFromBytes(("sluice-simulate/" + identity).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** Five characters derived from the seed, like the apiserver's random suffix. */
    static String suffix(String seed) {
        UUID u = UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8));
        long bits = u.getMostSignificantBits() ^ u.getLeastSignificantBits();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            sb.append(ALPHABET.charAt((int) Math.floorMod(bits, (long) ALPHABET.length())));
            bits = Math.floorDiv(bits, ALPHABET.length());
        }
        return sb.toString();
    }
}
