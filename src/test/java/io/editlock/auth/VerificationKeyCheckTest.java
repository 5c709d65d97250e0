package io.editlock.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.editlock.support.TestTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link VerificationKeyCheck} lets a node start with, and what it refuses. */
class VerificationKeyCheckTest {

    @TempDir
    Path dir;

    @Test
    void aPemPublicKeyFileIsAKey() {
        Path pem = TestTokens.generate().publicKeyFile();
        assertNull(VerificationKeyCheck.problemWith(pem.toString()));
        assertNull(VerificationKeyCheck.problemWith("file:" + pem));
    }

    @Test
    void aJwkSetIsAKey() throws IOException {
        Path jwks = Files.writeString(
                dir.resolve("jwks.json"),
                "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"1\",\"n\":\"sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1Wl"
                        + "UzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuy"
                        + "vVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv"
                        + "4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw\","
                        + "\"e\":\"AQAB\"}]}");
        assertNull(VerificationKeyCheck.problemWith(jwks.toString()));
    }

    @Test
    void thePrivateHalfIsRefused() {
        String problem = VerificationKeyCheck.problemWith(
                TestTokens.generate().privateKeyFile().toString());
        assertEquals("holds a private key, not the public key", problem);
    }

    @Test
    void nothingReadableThereIsRefused() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.pem"), "");
        assertNotNull(
                VerificationKeyCheck.problemWith(dir.resolve("missing.pem").toString()), "a file that is not there");
        assertNotNull(VerificationKeyCheck.problemWith(dir.toString()), "a directory (a missing bind-mount source)");
        assertNotNull(VerificationKeyCheck.problemWith(empty.toString()), "an empty file");
    }
}
