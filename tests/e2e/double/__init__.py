"""A local double of Discord's REST API v10 and gateway, for running the real bot in tests."""

from .faults import RouteFault
from .server import API_PREFIX, ApiError, DiscordDouble
from .state import Attachment, Channel, Guild, Interaction, Member, Message, Role, User

__all__ = [
    "API_PREFIX", "ApiError", "Attachment", "Channel", "DiscordDouble", "Guild", "Interaction", "Member",
    "Message", "Role", "RouteFault", "User",
]
