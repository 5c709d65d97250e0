package io.editlock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * An RS256 key pair for one bench run (PEM files in bench/run's temporary directory, deleted with
 * it): every server node verifies with the public half and signs demo tokens with the private half,
 * so that a token from node A's demo login is good on node B.
 */
final class Keys {

    private Keys() {}

    static void write(Path dir) throws IOException, NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        Base64.Encoder pem = Base64.getMimeEncoder(64, "\n".getBytes());
        Path privateKey = dir.resolve("jwt-private.pem");
        Files.writeString(
                privateKey,
                armor("PRIVATE KEY", pem.encodeToString(pair.getPrivate().getEncoded())));
        Files.setPosixFilePermissions(privateKey, PosixFilePermissions.fromString("rw-------"));
        Files.writeString(
                dir.resolve("jwt-public.pem"),
                armor("PUBLIC KEY", pem.encodeToString(pair.getPublic().getEncoded())));
    }

    /** PEM armour around a key generated for this run (no key is ever in the repository). */
    private static String armor(String label, String base64) {
        return "-----BEGIN " + label + "-----\n" + base64 + "\n-----END " + label + "-----\n";
    }
}
