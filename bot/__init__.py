"""The Discord bot: thin glue between Discord, the table service, the engines and the store."""
