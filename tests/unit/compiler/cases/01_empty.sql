-- A program that is only comments and whitespace compiles cleanly.

/* block comments
   span lines */

;;
