package io.editlock.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made for one test run, as an operator's would be for a Redis reached over TLS with
 * client certificates: one for the Redis server (naming 127.0.0.1 and localhost, so that hostname
 * verification passes) and one for the editlock nodes. Each is self-signed and trusted by the other side
 * as it is. Made with the JDK's keytool: no key material lives in the repository.
 */
public final class TestTls {

    private static final char[] STORE_PASSWORD = "test-only".toCharArray();

    private final Path directory;

    private TestTls(Path directory) {
        this.directory = directory;
    }

    public static TestTls generate() {
        try {
            Path directory = Files.createTempDirectory("editlock-test-tls-");
            directory.toFile().deleteOnExit();
            TestTls tls = new TestTls(directory);
            tls.keyPair("redis", "san=ip:127.0.0.1,dns:localhost");
            tls.keyPair("node", null);
            return tls;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The Redis server's certificate (PEM): what a node trusts. */
    public Path redisCertificate() {
        return directory.resolve("redis.crt");
    }

    /** The Redis server's private key (PEM, PKCS#8). */
    public Path redisKey() {
        return directory.resolve("redis.key");
    }

    /** The nodes' client certificate (PEM): what Redis trusts. */
    public Path nodeCertificate() {
        return directory.resolve("node.crt");
    }

    /** The nodes' private key (PEM, PKCS#8). */
    public Path nodeKey() {
        return directory.resolve("node.key");
    }

    /**
     * The redis-server arguments of a Redis that also listens for TLS on {@code tlsPort}, with the Redis
     * certificate; with {@code clientCertificates}, it asks its clients for theirs and trusts the nodes'.
     */
    public List<String> redisArguments(int tlsPort, boolean clientCertificates) {
        List<String> arguments = new ArrayList<>(List.of(
                "--tls-port",
                String.valueOf(tlsPort),
                "--tls-cert-file",
                redisCertificate().toString(),
                "--tls-key-file",
                redisKey().toString(),
                "--tls-auth-clients",
                clientCertificates ? "yes" : "no"));
        if (clientCertificates) {
            arguments.addAll(List.of("--tls-ca-cert-file", nodeCertificate().toString()));
        }
        return arguments;
    }

    private void keyPair(String name, String subjectAlternativeNames) {
        Path store = directory.resolve(name + ".p12");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-dname",
                "CN=editlock-test-" + name,
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                new String(STORE_PASSWORD)));
        if (subjectAlternativeNames != null) {
            command.addAll(List.of("-ext", subjectAlternativeNames));
        }
        try {
            Process keytool =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String said = new String(keytool.getInputStream().readAllBytes());
            if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
                throw new IllegalStateException("keytool could not make the " + name + " certificate: " + said);
            }
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, STORE_PASSWORD);
            }
            Files.writeString(
                    directory.resolve(name + ".crt"),
                    TestTokens.pem("CERTIFICATE", keys.getCertificate(name).getEncoded()));
            Files.writeString(
                    directory.resolve(name + ".key"),
                    TestTokens.pem(
                            "PRIVATE KEY", keys.getKey(name, STORE_PASSWORD).getEncoded()));
            for (String file : List.of(name + ".p12", name + ".crt", name + ".key")) {
                directory.resolve(file).toFile().deleteOnExit();
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
