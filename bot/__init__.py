"""The Discord bot: thin glue between Discord, the table service, the engines and the store."""

import warnings

# discord.py imports the deprecated `audioop` module for voice, which this bot never uses;
# the filter is set here, before any module of the bot imports discord.
warnings.filterwarnings(
    "ignore", message="'audioop' is deprecated", category=DeprecationWarning, module="discord"
)
