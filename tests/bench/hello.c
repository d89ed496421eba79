/* The floor of the footprint table: a static musl program that prints one
 * line through stdio and exits, so each applet's pages can be read as
 * "the C runtime's" plus "its own". */
#include <stdio.h>

int main(void)
{
	return puts("hello") < 0;
}
