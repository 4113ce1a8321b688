package io.ktk.flink.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The tool's logging, set up in code rather than from a {@code logback.xml}: the tool prints what
 * users need itself, libraries speak up only for warnings and errors, on stderr; an embedded Flink
 * only for errors (it warns about what a local run does not need: web UI log files, metric name
 * collisions, checkpoints declined while tasks start). In code because parsing an XML
 * configuration loads several hundred classes (an XML parser, logback's Joran) that a short command
 * such as {@code ktk query} pays for at every start. Found by logback through {@code
 * META-INF/services}; a {@code -Dlogback.configurationFile} still wins.
 */
public final class CliLogging extends ContextAwareBase implements Configurator {
  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%level %logger{20}: %msg%n");
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(stderr);
    context.getLogger("org.apache.flink").setLevel(Level.ERROR);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
