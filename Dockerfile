# JVM image of editlock, built from the fast-jar layout: ./mvnw package && docker build -t editlock .
FROM eclipse-temurin:17-jre
WORKDIR /deployments
COPY --chown=185 target/quarkus-app/lib/ /deployments/lib/
COPY --chown=185 target/quarkus-app/*.jar /deployments/
COPY --chown=185 target/quarkus-app/app/ /deployments/app/
COPY --chown=185 target/quarkus-app/quarkus/ /deployments/quarkus/
USER 185
EXPOSE 8080
ENV JAVA_OPTS_APPEND="-XX:+UseG1GC -XX:MaxRAMPercentage=75"
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS_APPEND -Dquarkus.http.host=0.0.0.0 -jar /deployments/quarkus-run.jar"]
