package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exit codes and messages for help, bad usage and errors. */
class UsageTest {
  @TempDir Path dir;

  private String url() {
    return dir.toUri().toString();
  }

  private static void assertUsage(KtkRun run, String message) {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.USAGE);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains(message);
  }

  @Test
  void helpListsTheCommandsAndExitsWithZero() {
    KtkRun run = ktk("--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Commands:", "info", "stats", "read", "validate", "gc", "index", "copy", "delete");

    KtkRun read = ktk("read", "--help");
    assertThat(read.exitCode()).isZero();
    assertThat(read.out()).contains("--where=EXPR", "--store-option=KEY=VALUE", "RFC 4180");
  }

  @Test
  void badUsageExitsWithTwoAndSaysWhatIsWrong() {
    assertUsage(ktk(), "Missing command.");
    assertUsage(ktk("frobnicate"), "Unmatched argument at index 0: 'frobnicate'");
    assertUsage(ktk("info", "--dataset", "x"), "Missing required option: '--store=URL'");
    assertUsage(ktk("info", "--store", url()), "Missing required argument (specify one of these): (--dataset=UUID | --cube=NAME)");
    assertUsage(ktk("info", "--store", url(), "--dataset", "x", "--bogus"), "Unknown option: '--bogus'");
    assertUsage(ktk("info", "--store", url(), "--dataset", "x", "--cube", "y"), "mutually exclusive");
    assertUsage(ktk("info", "--store", url(), "--dataset", "a/b"), "'a/b' is not a dataset uuid");
    assertUsage(ktk("stats", "--store", url(), "--cube", "a++b"), "'a++b' is not a cube name");
    assertUsage(ktk("read", "--store", url(), "--dataset", "x", "--format", "xml"), "Invalid value for option '--format'");
    assertUsage(ktk("gc", "--store", url(), "--dataset", "x", "--older-than", "soon"),
        "'soon' is not a duration; use e.g. 200ms, 30s, 30m, 12h, 7d or ISO-8601 PT12H");
    assertUsage(ktk("info", "--store", url(), "--store-option", "novalue", "--dataset", "x"), "--store-option");
    assertUsage(ktk("info", "--store", "ftp://host/x", "--dataset", "x"), "unknown scheme 'ftp'");
    assertUsage(ktk("info", "--store", url(), "--store-option", "region=eu-west-1", "--dataset", "x"),
        "unknown option 'region'; it takes no options");
  }

  @Test
  void olderThanTakesShortFormsAndIso8601() {
    DurationConverter converter = new DurationConverter();
    assertThat(converter.convert("30m")).hasMinutes(30);
    assertThat(converter.convert("12h")).hasHours(12);
    assertThat(converter.convert("7d")).hasDays(7);
    assertThat(converter.convert("PT36H")).hasHours(36);
    assertThat(converter.convert("P2D")).hasDays(2);
  }

  @Test
  void errorsExitWithOneAndPrintTheMessageAndAStackTraceOnlyWhenVerbose() {
    KtkRun run = ktk("info", "--store", url(), "--dataset", "missing");
    assertThat(run.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).isEqualTo("Cannot read dataset 'missing' in " + url()
        + ": it has neither a commit log nor plateau metadata" + System.lineSeparator());

    KtkRun verbose = ktk("info", "--store", url(), "--dataset", "missing", "--verbose");
    assertThat(verbose.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(verbose.err()).contains("Cannot read dataset 'missing'", "NoSuchDatasetException", "\tat ");
  }
}
