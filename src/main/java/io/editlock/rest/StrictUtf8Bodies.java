package io.editlock.rest;

import io.editlock.catalog.InvalidInputException;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A REST body is JSON, so UTF-8 (docs/protocol.md §8): one that is not is 400 before it is parsed.
 * Jackson's own decoder reads some invalid sequences as characters (an overlong {@code C0 AF} as
 * {@code /}), which would store text the client never sent. It also guesses UTF-16 and UTF-32 from
 * NUL bytes, which JSON in UTF-8 never holds (in a string a NUL is escaped, and outside one it is no
 * JSON at all), so a body with one is refused too. Bodies are small (the HTTP layer caps them), so
 * reading one twice costs little.
 */
@Provider
public class StrictUtf8Bodies implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        byte[] body = context.getInputStream().readAllBytes();
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body));
        } catch (CharacterCodingException e) {
            throw new InvalidInputException("the body is not valid UTF-8");
        }
        for (byte b : body) {
            if (b == 0) {
                throw new InvalidInputException(
                        "the body is not JSON in UTF-8 (it holds a NUL byte: UTF-16 or UTF-32?)");
            }
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }
}
