package io.ankusa.tests.admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless browser for the dashboard's tests: Debian's chromium through its chromedriver
 * (both paths set, so Selenium Manager downloads nothing), with a fresh profile, on loopback pages
 * only. Waits poll a condition with a bounded deadline.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    final ChromeDriver driver;
    private final String origin;

    Browser(int port, Path profile) {
        this.origin = "http://127.0.0.1:" + port;
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=1400,1000",
                "--force-prefers-reduced-motion");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(DEADLINE).scriptTimeout(DEADLINE);
        driver.manage().window().setSize(new Dimension(1400, 1000));
    }

    static boolean available() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    void open(String path) {
        driver.get(origin + path);
    }

    String url() {
        return driver.getCurrentUrl().substring(origin.length());
    }

    /** Signs in on the sign-in page with {@code token}. */
    void signIn(String token) {
        open("/signin");
        driver.findElement(By.id("token")).sendKeys(token);
        driver.findElement(By.id("signin")).click();
        await(d -> !url().startsWith("/signin"));
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** The exact text of the first element matching {@code css} (textContent: no whitespace folding). */
    String text(String css) {
        // After a click that navigates, the next page may not be there yet: wait for the element.
        return await(d -> (String) ((JavascriptExecutor) d).executeScript(
                "const e = document.querySelector(arguments[0]); return e === null ? null : e.textContent;", css));
    }

    /** The whole page's text. */
    String pageText() {
        return (String) driver.executeScript("return document.body.textContent;");
    }

    <T> T await(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, DEADLINE, Duration.ofMillis(50)).until(condition);
    }

    /** Whether an alert is open (a script of the page's data ran). */
    boolean alertOpen() {
        try {
            driver.switchTo().alert();
            return true;
        } catch (NoAlertPresentException e) {
            return false;
        }
    }

    /** A POST from the page's own context, as its script would send it; answers status and body. */
    String postFromPage(String path, boolean withToken) {
        return (String) driver.executeAsyncScript("""
                var done = arguments[arguments.length - 1];
                var headers = {};
                if (arguments[1]) {
                  headers['X-Ankusa-CSRF'] = document.querySelector('meta[name="ankusa-csrf"]').content;
                }
                fetch(arguments[0], {method: 'POST', credentials: 'same-origin', headers: headers})
                  .then(function (r) { return r.text().then(function (t) { done(r.status + ' ' + t); }); })
                  .catch(function (e) { done('failed ' + e); });
                """, path, withToken);
    }

    void screenshot(Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
