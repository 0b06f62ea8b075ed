import MMSearchHTTP
import Testing
